import { parseDecimal } from './decimal';
import { WinCurveParams } from './market-config';
import { ONE, Rational, add, div, mul, rational, sub } from './rational';

const MILLION = rational(1_000_000n);

/**
 * Share of a raw win the trader keeps before the win fee, as an exact rational:
 * ```
 * x    = move / E
 * keep = (1 - baseRate) / (1 + 1/(x * rateMultiplier) + referenceNotional/(1e6 * x * positionMultiplier))
 * ```
 * Always below 1 - baseRate (90% by default), rising toward it as the move grows.
 *
 * @param move favourable price move after the deadband, > 0, at the market price scale
 * @param entry entry price, > 0, at the same scale
 */
export function winKeepRatio(move: bigint, entry: bigint, params: WinCurveParams): Rational {
  if (move <= 0n) throw new RangeError(`The win curve needs a positive move, got ${move}`);
  if (entry <= 0n) throw new RangeError(`Entry price must be positive, got ${entry}`);
  const x = rational(move, entry);
  const baseRate = parseDecimal(params.baseRate);
  const rateMultiplier = parseDecimal(params.rateMultiplier);
  const referenceNotional = parseDecimal(params.referenceNotional);
  const positionMultiplier = parseDecimal(params.positionMultiplier);

  const rateTerm = div(ONE, mul(x, rateMultiplier));
  const sizeTerm = div(referenceNotional, mul(mul(MILLION, x), positionMultiplier));
  return div(sub(ONE, baseRate), add(add(ONE, rateTerm), sizeTerm));
}

/** The win fee as an exact rational (0.02 by default). */
export function winFeeRate(params: WinCurveParams): Rational {
  return parseDecimal(params.winFee);
}
