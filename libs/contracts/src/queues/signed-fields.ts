import { z } from 'zod';

/** Fields of signed (EIP-712) messages as they travel on the queues: integers as decimal strings. */
export const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
export const signature65 = z.string().regex(/^0x[0-9a-fA-F]{130}$/);

/** A decimal string of an unsigned integer that fits `bits` bits, as the typed data declares it. */
const uintOf = (bits: number) => {
  const max = (1n << BigInt(bits)) - 1n;
  // One check: zod runs every check of a string even after one failed, and BigInt throws on non-digits.
  return z
    .string()
    .refine(
      (v) => /^\d{1,78}$/.test(v) && BigInt(v) <= max,
      `must be an unsigned integer (decimal string) that fits a uint${bits}`,
    );
};

export const uint64 = uintOf(64);
export const uint256 = uintOf(256);
