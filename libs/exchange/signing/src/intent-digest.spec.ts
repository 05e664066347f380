import fc from 'fast-check';
import { hashTypedData, type Hex } from 'viem';
import { intentDigest } from './intent-digest';
import { exchangeDomain, INTENT_TYPES, type IntentMessage, PRIMARY_TYPE } from './typed-data';

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => `0x${Buffer.from(b).toString('hex')}` as Hex);
const uint = (bits: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n });

const intents: fc.Arbitrary<IntentMessage> = fc.oneof(
  fc.record({
    kind: fc.constant('open' as const),
    message: fc.record({
      wallet: hex(20),
      market: fc.constantFrom('BTC', 'ETH', '', 'ÉTH ✓'),
      side: fc.constantFrom('long' as const, 'short' as const),
      marginMicro: uint(256),
      leverage: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      nonce: uint(256),
      expiresAt: uint(64),
    }),
  }),
  fc.record({
    kind: fc.constant('close' as const),
    message: fc.record({
      wallet: hex(20),
      positionIds: fc.array(uint(256), { maxLength: 12 }),
      nonce: uint(256),
      expiresAt: uint(64),
    }),
  }),
  fc.record({
    kind: fc.constant('cancel' as const),
    message: fc.record({ wallet: hex(20), intentId: hex(32), nonce: uint(256), expiresAt: uint(64) }),
  }),
);

describe('intentDigest', () => {
  it("equals viem's EIP-712 typed-data hash of every intent type, on any chain", () => {
    fc.assert(
      fc.property(intents, fc.constantFrom(42161, 1, 31337), (intent, chainId) => {
        const expected = hashTypedData({
          domain: exchangeDomain(chainId),
          types: INTENT_TYPES,
          primaryType: PRIMARY_TYPE[intent.kind],
          message: intent.message as never,
        });
        expect(intentDigest(intent, chainId)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses values that do not fit their type instead of hashing something else', () => {
    const open: IntentMessage = {
      kind: 'open',
      message: {
        wallet: `0x${'11'.repeat(20)}`,
        market: 'BTC',
        side: 'long',
        marginMicro: 1n,
        leverage: 2 ** 32,
        nonce: 1n,
        expiresAt: 1n,
      },
    };
    expect(() => intentDigest(open)).toThrow(/uint32/);
    expect(() => intentDigest({ ...open, message: { ...open.message, leverage: 1, expiresAt: 1n << 64n } })).toThrow(
      /uint64/,
    );
    expect(() => intentDigest({ ...open, message: { ...open.message, leverage: 1, wallet: '0x1234' } })).toThrow(
      /20 bytes/,
    );
  });
});
