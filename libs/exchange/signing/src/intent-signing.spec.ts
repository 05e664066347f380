import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { intentId, recoverIntentSigner, signApproval, signIntent, verifyApproval } from './intent-signing';
import type { IntentMessage, SessionKeyApproval } from './typed-data';

const owner = generatePrivateKey();
const sessionKey = generatePrivateKey();
const wallet = privateKeyToAccount(owner).address;

const open: IntentMessage = {
  kind: 'open',
  message: {
    wallet,
    market: 'BTC',
    side: 'long',
    marginMicro: 25_000_000n,
    leverage: 500,
    nonce: 1n,
    expiresAt: 1_900_000_000n,
  },
};

describe('intent signing', () => {
  it('derives a 32-byte intent id that changes with any field', () => {
    const id = intentId(open);
    expect(id).toMatch(/^0x[0-9a-f]{64}$/);
    const other = intentId({ kind: 'open', message: { ...open.message, leverage: 501 } } as IntentMessage);
    expect(other).not.toBe(id);
  });

  it('recovers the session key that signed an intent', async () => {
    const signature = await signIntent(open, sessionKey);
    await expect(recoverIntentSigner(open, signature)).resolves.toBe(privateKeyToAccount(sessionKey).address);
  });

  it('recovers a different signer when the intent was altered after signing', async () => {
    const signature = await signIntent(open, sessionKey);
    const tampered = { kind: 'open', message: { ...open.message, marginMicro: 26_000_000n } } as IntentMessage;
    await expect(recoverIntentSigner(tampered, signature)).resolves.not.toBe(privateKeyToAccount(sessionKey).address);
  });

  it('verifies an owner approval and rejects a tampered one', async () => {
    const approval: SessionKeyApproval = {
      wallet,
      sessionKey: privateKeyToAccount(sessionKey).address,
      maxMarginPerTradeMicro: 100_000_000n,
      maxLeverage: 100,
      maxDailyNotionalMicro: 0n,
      maxOpenPositions: 5,
      allowedMarkets: 'BTC,ETH',
      requireConfirmation: true,
      canWithdraw: false,
      expiresAt: 1_900_000_000n,
    };
    const signature = await signApproval(approval, owner);
    await expect(verifyApproval(approval, signature)).resolves.toBe(true);
    await expect(verifyApproval({ ...approval, maxLeverage: 1000 }, signature)).resolves.toBe(false);
    await expect(verifyApproval(approval, await signApproval(approval, generatePrivateKey()))).resolves.toBe(false);
  });
});
