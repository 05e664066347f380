import fc from 'fast-check';
import { type Hex, keccak256, recoverAddress, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  DigestSignatureVerifier,
  type KeyRecovery,
  nativeKeyRecovery,
  WASM_KEY_RECOVERY,
} from './digest-signature.verifier';

const digestOf = (seed: number) => keccak256(toHex(`digest-${seed}`));
const flip = (hex: Hex, at: number): Hex =>
  `0x${hex.slice(2, 2 + at)}${hex[2 + at] === '0' ? '1' : '0'}${hex.slice(3 + at)}` as Hex;

/** v of the other recovery bit (27 <-> 28, 0 <-> 1). */
const otherRecoveryBit = (signature: Hex) => {
  const v = parseInt(signature.slice(-2), 16);
  return (v >= 27 ? 27 + ((v - 27) ^ 1) : v ^ 1).toString(16).padStart(2, '0');
};

it('recovers keys natively on this platform (the executor images are Linux x64)', () => {
  expect(nativeKeyRecovery()).not.toBeNull();
});

const BACKENDS: [string, KeyRecovery][] = [
  ['native libsecp256k1', nativeKeyRecovery()!],
  ['libsecp256k1 in WebAssembly', WASM_KEY_RECOVERY],
];

describe.each(BACKENDS)('DigestSignatureVerifier with %s', (_name, recovery) => {
  const keys = Array.from({ length: 3 }, () => privateKeyToAccount(generatePrivateKey()));

  it('agrees with ecrecover on signatures of known and new keys, valid or tampered', async () => {
    const verifier = new DigestSignatureVerifier(recovery);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.nat(1_000_000),
        fc.constantFrom('none', 'digest', 'r', 's', 'v'),
        async (signerIx, claimedIx, seed, tamper) => {
          const digest = digestOf(seed);
          const signature = await keys[signerIx]!.sign({ hash: digest });
          const checked = tamper === 'digest' ? flip(digest, 10) : digest;
          const otherV = otherRecoveryBit(signature);
          const sent =
            tamper === 'r'
              ? flip(signature, 20)
              : tamper === 's'
                ? flip(signature, 90)
                : tamper === 'v'
                  ? (`${signature.slice(0, -2)}${otherV}` as Hex)
                  : signature;
          const claimed = keys[claimedIx]!.address;
          const recovered = await recoverAddress({ hash: checked, signature: sent }).catch(() => null);
          expect(verifier.verify(checked, sent, claimed)).toBe(recovered?.toLowerCase() === claimed.toLowerCase());
        },
      ),
      { numRuns: 120 },
    );
  });

  it('accepts v as 27/28 or 0/1 and refuses malformed input without throwing', async () => {
    const verifier = new DigestSignatureVerifier(recovery);
    const key = keys[0]!;
    const digest = digestOf(1);
    const signature = await key.sign({ hash: digest });
    const v = parseInt(signature.slice(-2), 16);
    const zeroBased = `${signature.slice(0, -2)}${(v - 27).toString(16).padStart(2, '0')}` as Hex;
    expect(verifier.verify(digest, zeroBased, key.address)).toBe(true);
    expect(verifier.verify(digest, signature, key.address.toUpperCase().replace('0X', '0x'))).toBe(true);
    expect(verifier.verify(digest, '0x1234', key.address)).toBe(false);
    expect(verifier.verify('0xabcd', signature, key.address)).toBe(false);
    expect(verifier.verify(digest, `${signature.slice(0, -2)}05` as Hex, keys[1]!.address)).toBe(false);
    expect(verifier.verify(digest, `0x${'00'.repeat(64)}1b`, key.address)).toBe(false);
  });

  it('refuses a signature whose v names the other recovery bit, also for a key it already knows', async () => {
    const verifier = new DigestSignatureVerifier(recovery);
    const key = keys[1]!;
    for (const seed of [3, 4, 5, 6]) {
      const digest = digestOf(seed);
      const signature = await key.sign({ hash: digest });
      const otherV = otherRecoveryBit(signature);
      expect(verifier.verify(digest, signature, key.address)).toBe(true);
      expect(verifier.verify(digest, `${signature.slice(0, -2)}${otherV}` as Hex, key.address)).toBe(false);
    }
  });

  it('verifies signatures of many keys in turn (no per-key state to outgrow)', async () => {
    const verifier = new DigestSignatureVerifier(recovery);
    const many = Array.from({ length: 40 }, () => privateKeyToAccount(generatePrivateKey()));
    for (const key of [...many, ...many]) {
      const digest = digestOf(7);
      const signature = await key.sign({ hash: digest });
      expect(verifier.verify(digest, signature, key.address)).toBe(true);
      expect(verifier.verify(digest, signature, many[0] === key ? many[1]!.address : many[0]!.address)).toBe(false);
    }
  });
});

/** The same signature with s replaced by n - s and the other recovery bit (ecrecover accepts it). */
const highS = (signature: Hex, order: string): Hex => {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  return `${signature.slice(0, 66)}${(BigInt(`0x${order}`) - s).toString(16).padStart(64, '0')}${otherRecoveryBit(signature)}` as Hex;
};

describe('both key recoveries', () => {
  it('agree with ecrecover on every signature: valid, tampered, high s, or r or s out of range', async () => {
    const [native, wasm] = [
      new DigestSignatureVerifier(nativeKeyRecovery()!),
      new DigestSignatureVerifier(WASM_KEY_RECOVERY),
    ];
    const key = privateKeyToAccount(generatePrivateKey());
    const order = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';
    await fc.assert(
      fc.asyncProperty(
        fc.nat(1_000_000),
        fc.constantFrom('none', 'r', 's', 'v', 'r-order', 's-order', 'zero', 'high-s'),
        async (seed, tamper) => {
          const digest = digestOf(seed);
          const signature = await key.sign({ hash: digest });
          const sent =
            tamper === 'r'
              ? flip(signature, 20)
              : tamper === 's'
                ? flip(signature, 90)
                : tamper === 'v'
                  ? (`${signature.slice(0, -2)}${otherRecoveryBit(signature)}` as Hex)
                  : tamper === 'r-order'
                    ? (`0x${order}${signature.slice(66)}` as Hex)
                    : tamper === 's-order'
                      ? (`${signature.slice(0, 66)}${order}${signature.slice(-2)}` as Hex)
                      : tamper === 'zero'
                        ? (`0x${'00'.repeat(64)}${signature.slice(-2)}` as Hex)
                        : tamper === 'high-s'
                          ? highS(signature, order)
                          : signature;
          const expected =
            (await recoverAddress({ hash: digest, signature: sent }).catch(() => null))?.toLowerCase() ===
            key.address.toLowerCase();
          expect(native.verify(digest, sent, key.address)).toBe(expected);
          expect(wasm.verify(digest, sent, key.address)).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
