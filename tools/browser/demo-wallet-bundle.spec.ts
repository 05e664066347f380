import { approvalFromGuardrails, approvalTypedData, verifyApproval } from '@paper/exchange-signing';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { type Hex, verifyMessage } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

const BUNDLE = path.join(__dirname, '..', '..', 'apps', 'oauth-server', 'src', 'assets', 'demo-wallet.js');

interface DemoWalletApi {
  generatePrivateKey(): Hex;
  account(privateKey: Hex): {
    address: Hex;
    signMessage(message: string): Promise<Hex>;
    signTypedData(typed: unknown): Promise<Hex>;
  };
}

/** Runs the committed browser bundle in an isolated context with only what a browser page provides. */
function loadBundle(): DemoWalletApi {
  const context = vm.createContext({ crypto: globalThis.crypto, TextEncoder, TextDecoder });
  vm.runInContext(fs.readFileSync(BUNDLE, 'utf8'), context);
  return (context as { PaperDemoWallet: DemoWalletApi }).PaperDemoWallet;
}

/** The JSON a browser receives (integers as strings, EIP712Domain spelled out). */
function asBrowserJson(typed: ReturnType<typeof approvalTypedData>): unknown {
  const domainType = [
    { name: 'name', type: 'string' },
    { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ];
  return JSON.parse(
    JSON.stringify({ ...typed, types: { EIP712Domain: domainType, ...typed.types } }, (_k, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    ),
  );
}

describe('demo wallet browser bundle', () => {
  it('is the build of demo-wallet.entry.ts (regenerate with node tools/browser/build-demo-wallet.cjs)', async () => {
    const { bundle } = createRequire(__filename)('./build-demo-wallet.cjs') as { bundle(): Promise<string> };
    expect(await bundle()).toBe(fs.readFileSync(BUNDLE, 'utf8'));
  });

  it('creates a wallet whose sign-in signature verifies', async () => {
    const api = loadBundle();
    const key = api.generatePrivateKey();
    expect(key).toMatch(/^0x[0-9a-f]{64}$/);
    const account = api.account(key);
    expect(account.address).toBe(privateKeyToAccount(key).address);
    const message = 'localhost wants you to sign in with your Ethereum account';
    await expect(
      verifyMessage({ address: account.address, message, signature: await account.signMessage(message) }),
    ).resolves.toBe(true);
  });

  it('signs a session-key approval that the exchange accepts as the owner approval', async () => {
    const api = loadBundle();
    const account = api.account(api.generatePrivateKey());
    const guardrails = {
      maxMarginPerTradeUsd: '100',
      maxLeverage: 200,
      maxDailyNotionalUsd: '50000',
      maxOpenPositions: 5,
      allowedMarkets: ['BTC', 'ETH'],
      requireConfirmation: true,
    };
    const approval = approvalFromGuardrails(
      account.address,
      privateKeyToAccount(generatePrivateKey()).address,
      guardrails,
      1_900_000_000n,
    );
    const signature = await account.signTypedData(asBrowserJson(approvalTypedData(approval)));
    await expect(verifyApproval(approval, signature)).resolves.toBe(true);
  });
});
