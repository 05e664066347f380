import { usdc } from './decimal';
import { Rational, mulTrunc, rational } from './rational';

/**
 * Reward token (PAPER) minted to a trader on a losing close or a liquidation, per 1 USDC lost:
 * `baseRate` (100) while the LP is below `thresholdMicro` (2,000,000 USDC); at or above it
 * `baseRate * (S / (S + H))^2`, with S = 120,000,000 USDC and H the high-water mark of LP growth past
 * the threshold (it never goes down). PAPER has 6 decimals like USDC, so PAPER micro-units =
 * micro-USDC lost x rate.
 */
export interface RewardCurveParams {
  readonly baseRate: bigint;
  readonly thresholdMicro: bigint;
  readonly softnessMicro: bigint;
}

export const DEFAULT_REWARD_CURVE: RewardCurveParams = Object.freeze({
  baseRate: 100n,
  thresholdMicro: usdc(2_000_000),
  softnessMicro: usdc(120_000_000),
});

/**
 * The high-water mark H after observing an LP balance: max(previous H, LP - threshold, 0).
 * Call it whenever the LP changes; it never decreases.
 */
export function nextRewardHighWaterMark(
  previousHighWaterMicro: bigint,
  lpMicro: bigint,
  params: RewardCurveParams = DEFAULT_REWARD_CURVE,
): bigint {
  const growth = lpMicro - params.thresholdMicro;
  const candidate = growth > 0n ? growth : 0n;
  return candidate > previousHighWaterMicro ? candidate : previousHighWaterMicro;
}

/** PAPER minted per 1 USDC lost, as an exact rational. */
export function rewardMintRate(
  lpMicro: bigint,
  highWaterMicro: bigint,
  params: RewardCurveParams = DEFAULT_REWARD_CURVE,
): Rational {
  if (highWaterMicro < 0n) throw new RangeError('The high-water mark must not be negative');
  if (lpMicro < params.thresholdMicro) return rational(params.baseRate);
  const s = params.softnessMicro;
  const sh = s + highWaterMicro;
  return rational(params.baseRate * s * s, sh * sh);
}

/** PAPER (micro-units) minted for a loss of `lossMicro` micro-USDC, truncated toward zero. */
export function rewardMintAmount(
  lossMicro: bigint,
  lpMicro: bigint,
  highWaterMicro: bigint,
  params: RewardCurveParams = DEFAULT_REWARD_CURVE,
): bigint {
  if (lossMicro <= 0n) return 0n;
  return mulTrunc(lossMicro, rewardMintRate(lpMicro, highWaterMicro, params));
}
