import { signedOwnerActionSchema } from './owner-action-queues';
import { signedIntentSchema } from './exchange-queues';
import { uint256, uint64 } from './signed-fields';

const wallet = `0x${'1'.repeat(40)}`;
const signed = { signature: `0x${'2'.repeat(130)}` };

describe('signed message fields', () => {
  it('accept unsigned integers up to the width the typed data declares, and nothing past it', () => {
    expect(uint64.safeParse('18446744073709551615').success).toBe(true);
    expect(uint64.safeParse('18446744073709551616').success).toBe(false);
    expect(uint256.safeParse((2n ** 256n - 1n).toString()).success).toBe(true);
    expect(uint256.safeParse((2n ** 256n).toString()).success).toBe(false);
    expect(uint256.safeParse('9'.repeat(79)).success).toBe(false);
    for (const bad of ['', '-1', '1.5', '0x10', ' 1']) expect(uint256.safeParse(bad).success).toBe(false);
  });

  it('refuse intents and owner actions that could not be hashed as signed', () => {
    const action = {
      kind: 'stake',
      message: { wallet, amountMicro: '1000000', nonce: '1', expiresAt: '1700000000' },
      ...signed,
      actionId: `0x${'3'.repeat(64)}`,
    };
    expect(signedOwnerActionSchema.safeParse(action).success).toBe(true);
    expect(
      signedOwnerActionSchema.safeParse({
        ...action,
        message: { ...action.message, expiresAt: (2n ** 64n).toString() },
      }).success,
    ).toBe(false);
    const intent = {
      kind: 'close',
      message: { wallet, positionIds: ['1'], nonce: '1', expiresAt: '1700000000' },
      sessionKey: wallet,
      ...signed,
      intentId: `0x${'3'.repeat(64)}`,
    };
    expect(signedIntentSchema.safeParse(intent).success).toBe(true);
    expect(
      signedIntentSchema.safeParse({ ...intent, message: { ...intent.message, nonce: (2n ** 256n).toString() } })
        .success,
    ).toBe(false);
  });
});
