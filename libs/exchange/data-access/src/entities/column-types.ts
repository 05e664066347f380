import type { ValueTransformer } from 'typeorm';

/** bigint columns (money in micro-USDC, scaled prices) map to JS bigint, never to floats. */
export const bigintTransformer: ValueTransformer = {
  to: (value: bigint | null | undefined) => (value === null || value === undefined ? value : value.toString()),
  from: (value: string | null) => (value === null ? null : BigInt(value)),
};

export const bigintColumn = { type: 'bigint' as const, transformer: bigintTransformer };
/** numeric(78,0) for on-chain integer amounts (wei) that can exceed bigint. */
export const uint256Column = { type: 'numeric' as const, precision: 78, scale: 0, transformer: bigintTransformer };
