import { ONE, Rational, ZERO, clamp, rational } from './rational';
import { Side } from './types';

/** A long is liquidated when mark <= bust, a short when mark >= bust. Liquidation loses the whole margin. */
export function isLiquidatable(side: Side, mark: bigint, bust: bigint): boolean {
  return side === 'long' ? mark <= bust : mark >= bust;
}

/**
 * Distance to liquidation = |mark - bust| / mark, as an exact ratio (0.05 means 5%). Prices are
 * integers at the same scale, so the scale cancels.
 */
export function liquidationDistance(mark: bigint, bust: bigint): Rational {
  if (mark <= 0n) throw new RangeError(`Mark price must be positive, got ${mark}`);
  const gap = mark - bust;
  return rational(gap < 0n ? -gap : gap, mark);
}

/**
 * Liquidation risk in [0, 1] (0% .. 100%): (entry - mark) / (entry - bust) for a long,
 * (mark - entry) / (bust - entry) for a short, clamped. 0 while the position is at or beyond its
 * entry in its favour, 1 at or past the bust price.
 */
export function liquidationRisk(side: Side, entry: bigint, mark: bigint, bust: bigint): Rational {
  const adverse = side === 'long' ? entry - mark : mark - entry;
  const room = side === 'long' ? entry - bust : bust - entry;
  if (room <= 0n) {
    // Degenerate: bust at (or beyond) entry. Fully at risk as soon as the mark reaches the bust.
    return isLiquidatable(side, mark, bust) ? ONE : ZERO;
  }
  return clamp(rational(adverse, room), ZERO, ONE);
}
