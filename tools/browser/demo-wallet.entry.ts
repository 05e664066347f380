/**
 * Browser bundle entry of the demo wallet (paper trading only): a key generated and kept in the browser,
 * signing sign-in messages (EIP-191) and session-key approvals (EIP-712). Built into
 * apps/oauth-server/src/assets/demo-wallet.js by build-demo-wallet.cjs.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

type Field = { name: string; type: string };
interface BrowserTypedData {
  domain: Record<string, unknown>;
  types: Record<string, Field[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** JSON typed data (integers as decimal strings) back to what viem signs. */
function toViemTypedData(typed: BrowserTypedData) {
  const types = Object.fromEntries(Object.entries(typed.types).filter(([name]) => name !== 'EIP712Domain'));
  const fields = types[typed.primaryType] ?? [];
  const message = Object.fromEntries(
    Object.entries(typed.message).map(([key, value]) => {
      const type = fields.find((f) => f.name === key)?.type ?? '';
      return [key, /^u?int\d*$/.test(type) ? BigInt(value as string) : value];
    }),
  );
  const domain = {
    ...typed.domain,
    chainId: typed.domain['chainId'] === undefined ? undefined : Number(typed.domain['chainId']),
  };
  return { domain, types, primaryType: typed.primaryType, message } as never;
}

const api = {
  generatePrivateKey: (): string => generatePrivateKey(),
  account(privateKey: `0x${string}`) {
    const account = privateKeyToAccount(privateKey);
    return {
      address: account.address,
      signMessage: (message: string) => account.signMessage({ message }),
      signTypedData: (typed: BrowserTypedData) => account.signTypedData(toViemTypedData(typed)),
    };
  },
};

(globalThis as unknown as { PaperDemoWallet: typeof api }).PaperDemoWallet = api;
