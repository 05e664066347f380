import { keccak_256 } from '@noble/hashes/sha3';
import type { Hex } from 'viem';

/** Public-key recovery (uncompressed key, or null when nothing recovers). */
export type KeyRecovery = (digest: Uint8Array, signature64: Uint8Array, recovery: 0 | 1) => Uint8Array | null;

interface NativeSecp256k1 {
  ecdsaRecover(signature64: Uint8Array, recovery: number, digest: Uint8Array, compressed: boolean): Uint8Array;
}

/**
 * libsecp256k1 as a native addon (the `secp256k1` package's prebuilt binary), about 60 µs a recovery, or
 * null where no binary loads for the platform.
 */
function loadNative(): KeyRecovery | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the binding loads only where a binary exists
    const native = require('secp256k1/bindings') as NativeSecp256k1;
    return (digest, signature64, recovery) => {
      try {
        return native.ecdsaRecover(signature64, recovery, digest, false);
      } catch {
        return null; // r or s out of range, or no point recovers
      }
    };
  } catch {
    return null;
  }
}

type WasmSecp256k1 = {
  recover(digest: Uint8Array, signature64: Uint8Array, recovery: 0 | 1, compressed: boolean): Uint8Array | null;
};
let wasm: WasmSecp256k1 | undefined;

/**
 * libsecp256k1 compiled to WebAssembly (`tiny-secp256k1`), about 280 µs a recovery, on every platform;
 * instantiated on first use only (a process that recovers natively never holds its memory).
 */
export const WASM_KEY_RECOVERY: KeyRecovery = (digest, signature64, recovery) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use only
  wasm ??= require('tiny-secp256k1') as WasmSecp256k1;
  return wasm.recover(digest, signature64, recovery, false);
};

let native: KeyRecovery | null | undefined;

/**
 * The native recovery where its binary loads (Linux x64 and the other prebuilt platforms), else null; loaded on first
 * use.
 */
export function nativeKeyRecovery(): KeyRecovery | null {
  if (native === undefined) native = loadNative();
  return native;
}

function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex'));
}

/**
 * The Ethereum address (lowercase 0x + 40 hex) of an uncompressed public key: the last 20 bytes of keccak256(x || y).
 */
function addressOf(uncompressed: Uint8Array): string {
  return `0x${Buffer.from(keccak_256(uncompressed.subarray(1)))
    .subarray(12)
    .toString('hex')}`;
}

/**
 * Checks that 65-byte Ethereum signatures (r || s || v) over 32-byte digests were made by an expected
 * address, exactly as ecrecover decides (the recovery bit included: a signature whose v names the other
 * recovery bit recovers another key and is refused). The public key is recovered with libsecp256k1: the
 * native addon where its binary loads, else the same library compiled to WebAssembly (both agree on
 * every input; the tests hold them to ecrecover). Session keys sign every intent, so this is the
 * executor's dearest step per intent. No per-key state is kept.
 */
export class DigestSignatureVerifier {
  /** `recover` defaults to the native recovery where it loads, else WebAssembly (chosen on the first check). */
  constructor(private recover?: KeyRecovery) {}

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
      this.recover ??= nativeKeyRecovery() ?? WASM_KEY_RECOVERY;
      const key = this.recover(hash, raw.subarray(0, 64), recovery);
      return key !== null && addressOf(key) === address.toLowerCase();
    } catch {
      return false;
    }
  }
}
