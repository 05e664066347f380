import type { Page } from 'playwright-core';
import type { Hex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';

type Field = { name: string; type: string };
interface JsonTypedData {
  domain: Record<string, unknown>;
  types: Record<string, Field[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

export interface WalletCall {
  method: string;
  params: unknown[];
}

export interface InjectedWallet {
  account: PrivateKeyAccount;
  address: string;
  calls: WalletCall[];
  /** Typed data the page asked the wallet to sign, parsed. */
  signedTypedData(): JsonTypedData[];
}

export interface InjectOptions {
  /** Sign different limits than the page shows (a tampered approval). */
  tamperApproval?: boolean;
  /** Use this key instead of a fresh one (the same wallet across several consents). */
  privateKey?: Hex;
}

/** eth_signTypedData_v4 JSON (integers as strings, EIP712Domain spelled out) to what viem signs. */
export function viemTypedData(typed: JsonTypedData) {
  const types = Object.fromEntries(Object.entries(typed.types).filter(([n]) => n !== 'EIP712Domain'));
  const fields = types[typed.primaryType] ?? [];
  const message = Object.fromEntries(
    Object.entries(typed.message).map(([k, v]) => [
      k,
      /^u?int\d*$/.test(fields.find((f) => f.name === k)?.type ?? '') ? BigInt(v as string) : v,
    ]),
  );
  return {
    domain: { ...typed.domain, chainId: Number(typed.domain['chainId']) },
    types,
    primaryType: typed.primaryType,
    message,
  } as never;
}

/**
 * An EIP-1193 wallet injected into the page as `window.ethereum`, backed by a viem local account in the
 * test process (eth_requestAccounts, eth_chainId, personal_sign, eth_signTypedData_v4).
 */
export async function injectWallet(page: Page, options: InjectOptions = {}): Promise<InjectedWallet> {
  const account = privateKeyToAccount(options.privateKey ?? generatePrivateKey());
  const calls: WalletCall[] = [];
  const handle = async (method: string, params: unknown[]): Promise<unknown> => {
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account.address];
      case 'eth_chainId':
        return '0xa4b1';
      case 'wallet_switchEthereumChain':
        return null;
      case 'personal_sign':
        return account.signMessage({ message: { raw: params[0] as Hex } });
      case 'eth_signTypedData_v4': {
        const typed = JSON.parse(params[1] as string) as JsonTypedData;
        if (options.tamperApproval) typed.message['maxLeverage'] = 1000;
        return account.signTypedData(viemTypedData(typed));
      }
      default:
        throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 });
    }
  };
  await page.exposeFunction('__testWalletRequest', async (method: string, params: unknown[]) => {
    calls.push({ method, params });
    try {
      return { result: await handle(method, params) };
    } catch (error) {
      return { error: { code: (error as { code?: number }).code ?? -32603, message: (error as Error).message } };
    }
  });
  await page.addInitScript(() => {
    const w = globalThis as unknown as {
      ethereum: unknown;
      __testWalletRequest(
        method: string,
        params: unknown[],
      ): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
    };
    w.ethereum = {
      isTestWallet: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const answer = await w.__testWalletRequest(method, params ?? []);
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        return answer.result;
      },
      on() {},
      removeListener() {},
    };
  });
  return {
    account,
    address: account.address.toLowerCase(),
    calls,
    signedTypedData: () =>
      calls
        .filter((c) => c.method === 'eth_signTypedData_v4')
        .map((c) => JSON.parse(c.params[1] as string) as JsonTypedData),
  };
}
