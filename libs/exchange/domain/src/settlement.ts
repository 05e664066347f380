import { applyDeadband, deadband, favourableMove } from './deadband';
import { MarketConfig } from './market-config';
import { leverageToBigInt } from './notional';
import { Rational, mulTrunc, toDecimalString } from './rational';
import { Side } from './types';
import { winFeeRate, winKeepRatio } from './win-curve';

export interface SettlementInput {
  readonly side: Side;
  /** Entry price, integer at the market price scale. */
  readonly entry: bigint;
  /** Exit mid, integer at the market price scale. */
  readonly exit: bigint;
  readonly marginMicro: bigint;
  readonly leverage: number | bigint;
  readonly config: Pick<MarketConfig, 'deadbandDivisor' | 'winCurve'>;
}

export interface SettlementBreakdown {
  /** d = floor(E / 50000). */
  readonly deadband: bigint;
  /** X' after step 1. */
  readonly exitAfterDeadband: bigint;
  /** Signed move in the position's favour, price ticks. */
  readonly move: bigint;
  /** trunc(M * L * move / E). */
  readonly rawPnlMicro: bigint;
  /** rawPnl > 0. */
  readonly isWin: boolean;
  /** The win-curve keep ratio (wins only). */
  readonly keep: Rational | null;
  /** `keep` as a decimal string truncated to 12 digits (wins only). */
  readonly keepRatio: string | null;
  /** trunc(rawPnl * keep) for a win; equals pnl for a loss. */
  readonly adjustedMicro: bigint;
  /** rawPnl - adjusted: what the win curve leaves in the LP (0 on a loss). */
  readonly haircutMicro: bigint;
  /** trunc(adjusted * winFee): protocol fees (0 on a loss). */
  readonly feeMicro: bigint;
  /** The settled result: the payout (>= 0) on a win, the loss (<= 0, never below -margin) otherwise. */
  readonly pnlMicro: bigint;
  /** Owed to the trader from the LP (0 on a loss). */
  readonly payoutMicro: bigint;
  /** Lost to the LP (0 on a win). */
  readonly lossMicro: bigint;
  /** Margin handed back: all of it on a win, margin - loss otherwise. */
  readonly marginReturnedMicro: bigint;
}

/**
 * Settles a close at the exit mid (the win curve):
 * 1. deadband on wins; 2. move and rawPnl = M * L * move / E; 3. a loss is capped at the margin, no
 * fee; 4. a win keeps `trunc(rawPnl * keep)` and pays `adjusted - trunc(adjusted * winFee)`.
 *
 * Rounding: every division truncates toward zero, as an on-chain contract would (the spec's rule for
 * all divisions). For a win every operand is positive, so this equals the spec's floor. For a loss
 * the spec writes floor(M*L*move/E), but on-chain integer division truncates toward zero, so a
 * fractional loss is rounded toward zero (at most 1 micro-USDC less than floor would take).
 */
export function settle(input: SettlementInput): SettlementBreakdown {
  const { side, entry, exit, marginMicro, config } = input;
  if (entry <= 0n) throw new RangeError(`Entry price must be positive, got ${entry}`);
  if (exit < 0n) throw new RangeError(`Exit price must not be negative, got ${exit}`);
  if (marginMicro < 0n) throw new RangeError(`Margin must not be negative, got ${marginMicro}`);
  const leverage = leverageToBigInt(input.leverage);

  const d = deadband(entry, config.deadbandDivisor);
  const exitAfterDeadband = applyDeadband(side, entry, exit, d);
  const move = favourableMove(side, entry, exitAfterDeadband);
  const rawPnlMicro = (marginMicro * leverage * move) / entry;

  if (rawPnlMicro <= 0n) {
    const pnlMicro = rawPnlMicro < -marginMicro ? -marginMicro : rawPnlMicro;
    return {
      deadband: d,
      exitAfterDeadband,
      move,
      rawPnlMicro,
      isWin: false,
      keep: null,
      keepRatio: null,
      adjustedMicro: pnlMicro,
      haircutMicro: 0n,
      feeMicro: 0n,
      pnlMicro,
      payoutMicro: 0n,
      lossMicro: -pnlMicro,
      marginReturnedMicro: marginMicro + pnlMicro,
    };
  }

  const keep = winKeepRatio(move, entry, config.winCurve);
  const adjustedMicro = mulTrunc(rawPnlMicro, keep);
  const feeMicro = mulTrunc(adjustedMicro, winFeeRate(config.winCurve));
  const payoutMicro = adjustedMicro - feeMicro;
  return {
    deadband: d,
    exitAfterDeadband,
    move,
    rawPnlMicro,
    isWin: true,
    keep,
    keepRatio: toDecimalString(keep, 12),
    adjustedMicro,
    haircutMicro: rawPnlMicro - adjustedMicro,
    feeMicro,
    pnlMicro: payoutMicro,
    payoutMicro,
    lossMicro: 0n,
    marginReturnedMicro: marginMicro,
  };
}
