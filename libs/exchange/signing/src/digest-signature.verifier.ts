import { keccak_256 } from '@noble/hashes/sha3';
import { recover } from 'tiny-secp256k1';
import type { Hex } from 'viem';

function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex'));
}

/** The Ethereum address (lowercase 0x + 40 hex) of an uncompressed public key: the last 20 bytes of keccak256(x || y). */
function addressOf(uncompressed: Uint8Array): string {
  return `0x${Buffer.from(keccak_256(uncompressed.subarray(1))).subarray(12).toString('hex')}`;
}

/**
 * Checks that 65-byte Ethereum signatures (r || s || v) over 32-byte digests were made by an expected
 * address, exactly as ecrecover decides (the recovery bit included: a signature whose v names the other
 * recovery bit recovers another key and is refused). The public key is recovered with libsecp256k1
 * (compiled to WebAssembly, `tiny-secp256k1`), several times faster than recovery or verification in
 * JavaScript; session keys sign every intent, so this is the executor's dearest step per intent. No
 * per-key state is kept.
 */
export class DigestSignatureVerifier {
  /** Whether `signature` over `digest` was made by the key of `address` (any case). Never throws. */
  verify(digest: Hex, signature: Hex, address: string): boolean {
    try {
      const raw = hexToBytes(signature);
      if (raw.length !== 65) return false;
      const hash = hexToBytes(digest);
      if (hash.length !== 32) return false;
      const v = raw[64]!;
      const recovery = v >= 27 ? v - 27 : v;
      if (recovery !== 0 && recovery !== 1) return false;
      const key = recover(hash, raw.subarray(0, 64), recovery, false);
      return key !== null && addressOf(key) === address.toLowerCase();
    } catch {
      return false;
    }
  }
}
