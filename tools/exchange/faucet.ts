/**
 * `npm run faucet -- <wallet> [usdc] [eth]`: paper mode only (PAPER_MODE=true, NODE_ENV not production,
 * the same rule as the executor's /dev endpoints; it refuses otherwise). Credits the wallet's simulated
 * chain balance (default 10,000 USDC and 0.05 ETH), like POST /dev/faucet. Deposit to the exchange
 * afterwards by sending USDC to the wallet's deposit address (POST /dev/deposit).
 */
import { decimalToScaled, formatUsdc, scaledToDecimal, usdcToMicro } from '@paper/exchange';
import { chainBalances, createExchangeDataSource, creditChainBalance } from '@paper/exchange-data';
import { depositProxyAddress } from '@paper/exchange-signing';
import { paperModeRefusal } from './paper-mode';

const USAGE = 'usage: faucet <wallet 0x...40 hex> [usdc, default 10000] [eth, default 0.05]';

export async function runFaucet(
  argv: readonly string[],
  databaseUrl: string,
  environment: Record<string, string | undefined> = process.env,
): Promise<string> {
  const refusal = paperModeRefusal('The faucet', environment);
  if (refusal) throw new Error(refusal);
  const [wallet, usdcArg = '10000', ethArg = '0.05'] = argv;
  if (!wallet || !/^0x[0-9a-fA-F]{40}$/.test(wallet)) throw new Error(USAGE);
  if (!/^\d+(\.\d+)?$/.test(usdcArg) || !/^\d+(\.\d+)?$/.test(ethArg))
    throw new Error(`amounts must be positive decimals\n${USAGE}`);
  const usdc = usdcToMicro(usdcArg);
  const eth = decimalToScaled(ethArg, 18);
  const db = createExchangeDataSource({ url: databaseUrl, poolSize: 1, applicationName: 'faucet' });
  await db.initialize();
  try {
    if (usdc > 0n) await creditChainBalance(db, wallet, 'USDC', usdc);
    if (eth > 0n) await creditChainBalance(db, wallet, 'ETH', eth);
    const b = await chainBalances(db, wallet);
    return [
      `credited ${formatUsdc(usdc)} USDC and ${scaledToDecimal(eth, 18)} ETH to ${wallet.toLowerCase()}`,
      `chain balances now ${formatUsdc(b.usdcMicro)} USDC, ${scaledToDecimal(b.ethWei, 18)} ETH`,
      `deposit address ${depositProxyAddress(wallet)} (send at least 10 USDC there; the first deposit pays a 1 USDC activation fee)`,
    ].join('\n');
  } finally {
    await db.destroy();
  }
}

if (require.main === module) {
  runFaucet(process.argv.slice(2), process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/paper').then(
    (text) => console.log(text),
    (error: unknown) => {
      console.error((error as Error).message);
      process.exit(1);
    },
  );
}
