import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { decimal, WalletRow } from './row-fields';

/**
 * Simulated chain balances (paper mode): USDC in micro-units and ETH in wei per address. Each function
 * is one atomic statement, usable with a DataSource, an EntityManager or a QueryRunner.
 */
export type ChainAsset = 'USDC' | 'ETH';

export interface ChainBalances {
  usdcMicro: bigint;
  ethWei: bigint;
}

export const ChainAmountRow = z.object({ amount: decimal });
export type ChainAmountRow = z.infer<typeof ChainAmountRow>;

export const ChainBalanceRow = z.object({ asset: z.enum(['USDC', 'ETH']), amount: decimal });
export type ChainBalanceRow = z.infer<typeof ChainBalanceRow>;

/** Adds `amount` to an address's balance (the faucet); returns the new balance. */
export async function creditChainBalance(
  db: QueryExecutor,
  address: string,
  asset: ChainAsset,
  amount: bigint,
): Promise<bigint> {
  if (amount <= 0n) throw new RangeError('A credit must be positive');
  const rows = await queryRows<ChainAmountRow>(
    db,
    `INSERT INTO exchange.chain_balances (address, asset, amount, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (address, asset) DO UPDATE SET amount = exchange.chain_balances.amount + EXCLUDED.amount,
       updated_at = now()
     RETURNING amount`,
    [address.toLowerCase(), asset, amount.toString()],
  );
  return BigInt(rows[0]!.amount);
}

/** Moves `amount` between addresses if `from` holds enough; false (and nothing moves) otherwise. */
export async function transferChainBalance(
  db: QueryExecutor,
  from: string,
  to: string,
  asset: ChainAsset,
  amount: bigint,
): Promise<boolean> {
  if (amount <= 0n) throw new RangeError('A transfer must be positive');
  const rows = await queryRows<ChainAmountRow>(
    db,
    `WITH debit AS (
       UPDATE exchange.chain_balances SET amount = amount - $4, updated_at = now()
        WHERE address = $1 AND asset = $3 AND amount >= $4 RETURNING 1)
     INSERT INTO exchange.chain_balances (address, asset, amount, updated_at)
     SELECT $2, $3, $4, now() FROM debit
     ON CONFLICT (address, asset) DO UPDATE SET amount = exchange.chain_balances.amount + EXCLUDED.amount,
       updated_at = now()
     RETURNING amount`,
    [from.toLowerCase(), to.toLowerCase(), asset, amount.toString()],
  );
  return rows.length === 1;
}

/** Both balances of an address (zero when never funded). */
export async function chainBalances(db: QueryExecutor, address: string): Promise<ChainBalances> {
  const rows = await queryRows<ChainBalanceRow>(
    db,
    `SELECT asset, amount FROM exchange.chain_balances WHERE address = $1`,
    [address.toLowerCase()],
  );
  const of = (asset: ChainAsset) => BigInt(rows.find((r) => r.asset === asset)?.amount ?? '0');
  return { usdcMicro: of('USDC'), ethWei: of('ETH') };
}

/** Wallets whose deposit address holds USDC waiting to be swept (all, or only `wallet`), at most 1,000. */
export async function walletsWithDepositsWaiting(db: QueryExecutor, wallet?: string): Promise<string[]> {
  const rows = await queryRows<WalletRow>(
    db,
    `SELECT a.wallet FROM exchange.chain_balances c JOIN exchange.accounts a ON a.deposit_address = c.address
      WHERE c.asset = 'USDC' AND c.amount > 0 AND ($1::text IS NULL OR a.wallet = $1) LIMIT 1000`,
    [wallet ? wallet.toLowerCase() : null],
  );
  return rows.map((r) => r.wallet);
}
