import {
  DEFAULT_MARKET_CONFIGS,
  type MarketConfig,
  type Rational,
  liquidationDistance,
  liquidationRisk,
  outcomeAtExit,
} from '@paper/exchange';
import type { PositionRow } from '@paper/exchange-data';

export type { PositionRow };

export interface PositionValuation {
  /** Settled PnL if closed at `mark` now; -margin when the mark is at or past the bust price. */
  pnlMicro: bigint;
  liquidatable: boolean;
  distance: Rational;
  risk: Rational;
}

/** Live estimate of an open position at the mark, with the exchange's settlement formula. */
export function valuePosition(
  position: PositionRow,
  mark: bigint,
  config: MarketConfig = DEFAULT_MARKET_CONFIGS[position.market],
): PositionValuation {
  const outcome = outcomeAtExit({
    side: position.side,
    marginMicro: position.marginMicro,
    leverage: position.leverage,
    entryPrice: position.entryPrice,
    exitPrice: mark,
    bust: position.bustPrice,
    config,
  });
  return {
    pnlMicro: outcome.pnlMicro,
    liquidatable: outcome.liquidated,
    distance: liquidationDistance(mark, position.bustPrice),
    risk: liquidationRisk(position.side, position.entryPrice, mark, position.bustPrice),
  };
}
