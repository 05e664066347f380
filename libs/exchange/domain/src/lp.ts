import { usdc } from './decimal';

/** When the LP exceeds this balance the excess is swept to stakers. */
export const DEFAULT_LP_CAP_MICRO = usdc(5_000_000);

export interface LpSweep {
  readonly lpAfterMicro: bigint;
  /** Sent to stakers (0 when the LP is at or below the cap). */
  readonly sweptMicro: bigint;
}

/** Sweeps the LP balance above `capMicro` to stakers. */
export function sweepLpExcess(lpMicro: bigint, capMicro: bigint = DEFAULT_LP_CAP_MICRO): LpSweep {
  if (capMicro < 0n) throw new RangeError('The LP cap must not be negative');
  if (lpMicro <= capMicro) return { lpAfterMicro: lpMicro, sweptMicro: 0n };
  return { lpAfterMicro: capMicro, sweptMicro: lpMicro - capMicro };
}
