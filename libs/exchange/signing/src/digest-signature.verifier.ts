import { mod, invert } from '@noble/curves/abstract/modular';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import type { Hex } from 'viem';

type Point = InstanceType<typeof secp256k1.ProjectivePoint>;

const N = secp256k1.CURVE.n;
const G = secp256k1.ProjectivePoint.BASE;
/** wNAF window of a cached public key: 8 additions per 32 bits of scalar, about 50 KB of points per key. */
const KEY_WINDOW = 4;

function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex'));
}

/** The Ethereum address (lowercase 0x + 40 hex) of a public key: the last 20 bytes of keccak256(x || y). */
function addressOf(point: Point): string {
  const uncompressed = point.toRawBytes(false);
  return `0x${Buffer.from(keccak_256(uncompressed.subarray(1))).subarray(12).toString('hex')}`;
}

/**
 * Checks that 65-byte Ethereum signatures (r || s || v) over 32-byte digests were made by an expected
 * address, as ecrecover would, but faster for keys that sign again and again (session keys sign every
 * intent): the first signature of a key is verified by recovering its public key, which is then kept
 * with precomputed multiples, so later signatures of that key cost a plain ECDSA verification against
 * it (u1·G + u2·Q with both points precomputed) instead of a recovery. At most `capacity` keys are kept
 * (least recently used dropped).
 */
export class DigestSignatureVerifier {
  private readonly keys = new Map<string, Point>();

  constructor(private readonly capacity = 128) {}

  /** Whether `signature` over `digest` was made by the key of `address` (any case). Never throws. */
  verify(digest: Hex, signature: Hex, address: string): boolean {
    try {
      const expected = address.toLowerCase();
      const raw = hexToBytes(signature);
      if (raw.length !== 65) return false;
      const hash = hexToBytes(digest);
      if (hash.length !== 32) return false;
      const v = raw[64]!;
      const recovery = v >= 27 ? v - 27 : v;
      if (recovery !== 0 && recovery !== 1) return false;
      const sig = secp256k1.Signature.fromCompact(raw.subarray(0, 64));
      const known = this.keys.get(expected);
      if (known) {
        this.keys.delete(expected);
        this.keys.set(expected, known);
        return verifyWith(known, hash, sig.r, sig.s, recovery);
      }
      const key = sig.addRecoveryBit(recovery).recoverPublicKey(hash);
      if (addressOf(key) !== expected) return false;
      this.remember(expected, key);
      return true;
    } catch {
      return false;
    }
  }

  private remember(address: string, key: Point): void {
    key._setWindowSize(KEY_WINDOW);
    if (this.keys.size >= this.capacity) this.keys.delete(this.keys.keys().next().value!);
    this.keys.set(address, key);
  }
}

/**
 * ECDSA verification of (r, s) over a 32-byte digest against a known public key, plus the recovery bit:
 * the point R = u1·G + u2·Q must have the y parity that v names, or ecrecover would find another key.
 */
function verifyWith(key: Point, hash: Uint8Array, r: bigint, s: bigint, recovery: number): boolean {
  if (r <= 0n || r >= N || s <= 0n || s >= N) return false;
  const h = mod(BigInt(`0x${Buffer.from(hash).toString('hex')}`), N);
  const sInv = invert(s, N);
  // multiply() uses the precomputed tables of G and of the cached key
  const sum = G.multiply(mod(h * sInv, N)).add(key.multiply(mod(r * sInv, N)));
  if (sum.equals(secp256k1.ProjectivePoint.ZERO)) return false;
  const { x, y } = sum.toAffine();
  return mod(x, N) === r && Number(y & 1n) === recovery;
}
