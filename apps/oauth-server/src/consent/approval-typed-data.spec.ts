import { verifyApproval } from '@paper/exchange-signing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { approvalFor, browserTypedData } from './approval-typed-data';

describe('approval typed data for browser wallets', () => {
  const owner = privateKeyToAccount(generatePrivateKey());
  const sessionKey = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
  const guardrails = {
    maxMarginPerTradeUsd: '100.5',
    maxLeverage: 200,
    maxDailyNotionalUsd: null,
    maxOpenPositions: null,
    allowedMarkets: ['ETH', 'BTC'] as ('BTC' | 'ETH')[],
    requireConfirmation: true,
  };
  const approval = approvalFor(owner.address.toLowerCase(), sessionKey, guardrails, new Date('2030-01-01T00:00:00Z'));

  it('is plain JSON with decimal strings and an explicit EIP712Domain', () => {
    const typed = browserTypedData(approval) as { types: Record<string, unknown>; message: Record<string, unknown> };
    expect(Object.keys(typed.types)).toEqual(['EIP712Domain', 'SessionKeyApproval']);
    expect(typed.message).toMatchObject({
      maxMarginPerTradeMicro: '100500000',
      maxDailyNotionalMicro: '0',
      maxOpenPositions: 0,
      allowedMarkets: 'BTC,ETH',
      canWithdraw: false,
      expiresAt: String(Date.parse('2030-01-01T00:00:00Z') / 1000),
    });
  });

  it('signed as a wallet would sign it, verifies as the owner approval', async () => {
    const typed = browserTypedData(approval) as {
      domain: Record<string, unknown>;
      types: Record<string, { name: string; type: string }[]>;
      message: Record<string, unknown>;
    };
    const fields = typed.types['SessionKeyApproval']!;
    const message = Object.fromEntries(
      Object.entries(typed.message).map(([k, v]) => [
        k,
        /^uint(256|64)$/.test(fields.find((f) => f.name === k)!.type) ? BigInt(v as string) : v,
      ]),
    );
    const signature = await owner.signTypedData({
      domain: typed.domain as never,
      types: { SessionKeyApproval: fields },
      primaryType: 'SessionKeyApproval',
      message: message as never,
    });
    await expect(verifyApproval(approval, signature)).resolves.toBe(true);
    await expect(verifyApproval({ ...approval, maxLeverage: 1000 }, signature)).resolves.toBe(false);
  });
});
