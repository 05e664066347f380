import { usdc } from './decimal';

/** When the LP exceeds this balance the excess is swept out of it, to stakers (through the staking reserve). */
export const DEFAULT_LP_CAP_MICRO = usdc(5_000_000);

export interface LpSweep {
  readonly lpAfterMicro: bigint;
  /** Swept out of the LP (0 when the LP is at or below the cap). */
  readonly sweptMicro: bigint;
}

/** The LP balance above `capMicro`, which leaves the LP. */
export function sweepLpExcess(lpMicro: bigint, capMicro: bigint = DEFAULT_LP_CAP_MICRO): LpSweep {
  if (capMicro < 0n) throw new RangeError('The LP cap must not be negative');
  if (lpMicro <= capMicro) return { lpAfterMicro: lpMicro, sweptMicro: 0n };
  return { lpAfterMicro: capMicro, sweptMicro: lpMicro - capMicro };
}
