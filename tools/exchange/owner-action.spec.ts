import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseOwnerAction, runOwnerAction } from './owner-action';

const key = generatePrivateKey();
const wallet = privateKeyToAccount(key).address.toLowerCase();

describe('owner-action CLI', () => {
  it('builds withdraw, stake, unstake and claim actions of the wallet from the arguments', () => {
    expect(parseOwnerAction(['withdraw', '25.5'], wallet)).toMatchObject({
      kind: 'withdraw',
      message: { wallet, to: wallet, amountMicro: 25_500_000n },
    });
    expect(parseOwnerAction(['stake', '1000'], wallet)).toMatchObject({
      kind: 'stake',
      message: { wallet, amountMicro: 1_000_000_000n },
    });
    expect(parseOwnerAction(['unstake', '0.000001'], wallet)).toMatchObject({
      kind: 'unstake',
      message: { amountMicro: 1n },
    });
    expect(parseOwnerAction(['claim'], wallet)).toMatchObject({ kind: 'claim_rewards', message: { wallet } });
    const a = parseOwnerAction(['claim'], wallet).message;
    const b = parseOwnerAction(['claim'], wallet).message;
    expect(a.nonce).not.toBe(b.nonce);
    expect(Number(a.expiresAt) - Date.now() / 1000).toBeLessThanOrEqual(3600);
  });

  it('refuses unknown commands and bad amounts with the usage', () => {
    expect(() => parseOwnerAction(['withdraw'], wallet)).toThrow(/positive decimal.*\n.*usage/s);
    expect(() => parseOwnerAction(['stake', '-1'], wallet)).toThrow(/positive decimal/);
    expect(() => parseOwnerAction(['withdraw', '10', 'nope'], wallet)).toThrow(/destination must be an address/);
    expect(() => parseOwnerAction(['transfer', '10'], wallet)).toThrow(/usage/);
  });

  it('refuses outside paper mode, and without the wallet key, before touching Redis', async () => {
    await expect(runOwnerAction(['claim'], { PAPER_MODE: 'false', OWNER_PRIVATE_KEY: key })).rejects.toThrow(
      /only in paper mode/,
    );
    await expect(runOwnerAction(['claim'], { NODE_ENV: 'production', OWNER_PRIVATE_KEY: key })).rejects.toThrow(
      /NODE_ENV is production/,
    );
    await expect(runOwnerAction(['claim'], {})).rejects.toThrow(/set OWNER_PRIVATE_KEY/);
  });
});
