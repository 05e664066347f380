import { bustPrice } from './bust-price';
import { deadband } from './deadband';
import { isLiquidatable, liquidationDistance } from './liquidation';
import { DEFAULT_MARKET_CONFIGS, MarketConfig } from './market-config';
import { leverageToBigInt } from './notional';
import { Rational, mul, rational, toDecimalString } from './rational';
import { SettlementBreakdown, settle } from './settlement';
import { Market, Side } from './types';

export interface PositionCalcInput {
  readonly market: Market;
  readonly side: Side;
  readonly marginMicro: bigint;
  readonly leverage: number;
  /** Integer at the market price scale. */
  readonly entryPrice: bigint;
  /** Target exit, integer at the market price scale. */
  readonly exitPrice?: bigint | null;
  /** Defaults to the market's default configuration. */
  readonly config?: MarketConfig;
}

/** What a close at `exitPrice` yields. A price at or past the bust price means liquidation. */
export interface ExitOutcome {
  readonly exitPrice: bigint;
  readonly liquidated: boolean;
  /** -margin when liquidated, else the settled pnl (payout after win curve and fee, or capped loss). */
  readonly pnlMicro: bigint;
  /** The settlement breakdown; `null` when liquidated (liquidation loses the whole margin). */
  readonly settlement: SettlementBreakdown | null;
}

export interface PositionCalculation {
  readonly market: Market;
  readonly side: Side;
  readonly marginMicro: bigint;
  readonly leverage: number;
  readonly notionalMicro: bigint;
  readonly entryPrice: bigint;
  readonly bustPrice: bigint;
  readonly deadband: bigint;
  /** |entry - bust| / entry. */
  readonly liquidationDistance: Rational;
  /** The same in percent, decimal string truncated to 6 digits ("0.052461"). */
  readonly liquidationDistancePercent: string;
  readonly exit: ExitOutcome | null;
}

/** Powers `calculate_position`: bust price, liquidation distance, notional and the result at an exit. */
export function calculatePosition(input: PositionCalcInput): PositionCalculation {
  const config = input.config ?? DEFAULT_MARKET_CONFIGS[input.market];
  const { market, side, marginMicro, leverage, entryPrice } = input;
  const bust = bustPrice(side, entryPrice, leverage, config.bustBuffer);
  const distance = liquidationDistance(entryPrice, bust);
  const exitPrice = input.exitPrice ?? null;
  return {
    market,
    side,
    marginMicro,
    leverage,
    notionalMicro: marginMicro * leverageToBigInt(leverage),
    entryPrice,
    bustPrice: bust,
    deadband: deadband(entryPrice, config.deadbandDivisor),
    liquidationDistance: distance,
    liquidationDistancePercent: toDecimalString(mul(distance, rational(100n)), 6),
    exit:
      exitPrice === null ? null : outcomeAtExit({ side, marginMicro, leverage, entryPrice, exitPrice, bust, config }),
  };
}

export interface ExitOutcomeInput {
  readonly side: Side;
  readonly marginMicro: bigint;
  readonly leverage: number;
  readonly entryPrice: bigint;
  readonly exitPrice: bigint;
  /** The position's bust price. */
  readonly bust: bigint;
  readonly config: Pick<MarketConfig, 'deadbandDivisor' | 'winCurve'>;
}

/**
 * How a position ends at `exitPrice`: liquidated (-margin) at or past its bust price, else settled
 * with the win curve. The one rule for every settlement and valuation of a position (closes,
 * `closeAccounting`, equity snapshots, calculators): never `settle` alone, which ignores the bust price.
 */
export function outcomeAtExit(input: ExitOutcomeInput): ExitOutcome {
  const { side, marginMicro, leverage, entryPrice, exitPrice, bust, config } = input;
  if (isLiquidatable(side, exitPrice, bust)) {
    return { exitPrice, liquidated: true, pnlMicro: -marginMicro, settlement: null };
  }
  const settlement = settle({ side, entry: entryPrice, exit: exitPrice, marginMicro, leverage, config });
  return { exitPrice, liquidated: false, pnlMicro: settlement.pnlMicro, settlement };
}

export const DEFAULT_SCENARIO_MOVES_BPS: readonly number[] = [-500, -100, 100, 500];

export interface PnlScenario {
  /** "+1%", "-5%" or "bust". */
  readonly label: string;
  /** Price move from entry in basis points; `null` for the bust scenario. */
  readonly moveBps: number | null;
  readonly outcome: ExitOutcome;
}

export interface PnlScenarioInput extends Omit<PositionCalcInput, 'exitPrice'> {
  /** Price moves from entry, in basis points (100 = 1%). Defaults to -5%, -1%, +1%, +5%. */
  readonly movesBps?: readonly number[];
}

/**
 * Results at price moves of the given sizes from entry (exit = E + trunc(E * bps / 10000)), plus the
 * result at the bust price. Powers the scenarios of `preview_trade`.
 */
export function pnlScenarios(input: PnlScenarioInput): PnlScenario[] {
  const config = input.config ?? DEFAULT_MARKET_CONFIGS[input.market];
  const { side, marginMicro, leverage, entryPrice } = input;
  const bust = bustPrice(side, entryPrice, leverage, config.bustBuffer);
  const scenarios = (input.movesBps ?? DEFAULT_SCENARIO_MOVES_BPS).map((bps): PnlScenario => {
    if (!Number.isSafeInteger(bps)) throw new RangeError(`Scenario move must be whole basis points, got ${bps}`);
    const raw = entryPrice + (entryPrice * BigInt(bps)) / 10_000n;
    const exitPrice = raw > 0n ? raw : 0n;
    return {
      label: `${bps > 0 ? '+' : ''}${toDecimalString(rational(BigInt(bps), 100n), 2)}%`,
      moveBps: bps,
      outcome: outcomeAtExit({ side, marginMicro, leverage, entryPrice, exitPrice, bust, config }),
    };
  });
  const atBust: PnlScenario = {
    label: 'bust',
    moveBps: null,
    outcome: outcomeAtExit({ side, marginMicro, leverage, entryPrice, exitPrice: bust, bust, config }),
  };
  return [...scenarios, atBust];
}
