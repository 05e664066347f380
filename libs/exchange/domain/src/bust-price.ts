import { parseDecimal } from './decimal';
import { leverageToBigInt } from './notional';
import { Rational, mulTrunc } from './rational';
import { Side } from './types';

/**
 * Bust (liquidation) price. With E = entry, L = leverage, b = bust buffer (all divisions truncate
 * toward zero; every operand here is non-negative, so this equals the spec's floor):
 * ```
 * step = floor(E / L)
 * long : zero = E - step ; bust = zero + floor(zero * b)
 * short: zero = E + step ; bust = zero - floor(zero * b)
 * ```
 * Lower leverage gives a larger step, so the bust price sits further from entry; at leverage 1 a long
 * busts at 0 (plus nothing) and a short at 2E minus the buffer.
 *
 * @param entry entry price, a positive integer at the market price scale
 * @param bustBuffer b as a decimal string ("0.000476") or a rational
 */
export function bustPrice(side: Side, entry: bigint, leverage: number | bigint, bustBuffer: string | Rational): bigint {
  if (entry <= 0n) throw new RangeError(`Entry price must be positive, got ${entry}`);
  const b = typeof bustBuffer === 'string' ? parseDecimal(bustBuffer) : bustBuffer;
  if (b.num < 0n) throw new RangeError('Bust buffer must not be negative');
  const step = entry / leverageToBigInt(leverage);
  if (side === 'long') {
    const zero = entry - step;
    return zero + mulTrunc(zero, b);
  }
  const zero = entry + step;
  return zero - mulTrunc(zero, b);
}
