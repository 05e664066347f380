import { Side } from './types';

/** d = floor(E / divisor); the default divisor 50000 gives 0.2 bp of the entry price. */
export function deadband(entry: bigint, divisor: bigint = 50_000n): bigint {
  if (divisor <= 0n) throw new RangeError('Deadband divisor must be positive');
  return entry / divisor;
}

/**
 * Step 1 of settlement: the deadband shaves `d` off wins only.
 * Long:  X > E + d → X - d;  E < X <= E + d → E;  otherwise X.
 * Short: X + d < E → X + d;  E - d <= X < E → E;  otherwise X.
 * Losses pass through untouched; an exit within d of the entry in the position's favour pays zero.
 */
export function applyDeadband(side: Side, entry: bigint, exit: bigint, d: bigint): bigint {
  if (side === 'long') {
    if (exit > entry + d) return exit - d;
    if (exit > entry) return entry;
    return exit;
  }
  if (exit + d < entry) return exit + d;
  if (exit < entry) return entry;
  return exit;
}

/** Signed price move in the position's favour: X' - E for a long, E - X' for a short. */
export function favourableMove(side: Side, entry: bigint, exitAfterDeadband: bigint): bigint {
  return side === 'long' ? exitAfterDeadband - entry : entry - exitAfterDeadband;
}
