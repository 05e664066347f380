import {
  DEFAULT_MARKET_CONFIGS,
  type Market,
  type MarketConfig,
  type Rational,
  type Side,
  liquidationDistance,
  liquidationRisk,
  outcomeAtExit,
} from '@paper/exchange';
import { iso, toBig } from '../money/money-format';

/** An open position as read from exchange.positions. */
export interface PositionRow {
  id: string;
  wallet: string;
  market: Market;
  side: Side;
  marginMicro: bigint;
  leverage: number;
  notionalMicro: bigint;
  entryPrice: bigint;
  bustPrice: bigint;
  status: 'open' | 'closed' | 'liquidated';
  exitPrice: bigint | null;
  pnlMicro: bigint | null;
  feeMicro: bigint;
  queuedMicro: bigint;
  rewardMintedMicro: bigint;
  openedAt: string;
  closedAt: string | null;
}

/** The SELECT list that {@link toPositionRow} reads. */
export const POSITION_COLUMNS = `id::text AS id, wallet, market, side, margin_micro, leverage, notional_micro, entry_price, bust_price,
  status, exit_price, pnl_micro, fee_micro, queued_micro, reward_minted_micro, opened_at, closed_at`;

export function toPositionRow(raw: Record<string, unknown>): PositionRow {
  return {
    id: String(raw['id']),
    wallet: String(raw['wallet']),
    market: raw['market'] as Market,
    side: raw['side'] as Side,
    marginMicro: toBig(raw['margin_micro']),
    leverage: Number(raw['leverage']),
    notionalMicro: toBig(raw['notional_micro']),
    entryPrice: toBig(raw['entry_price']),
    bustPrice: toBig(raw['bust_price']),
    status: raw['status'] as PositionRow['status'],
    exitPrice: raw['exit_price'] === null || raw['exit_price'] === undefined ? null : toBig(raw['exit_price']),
    pnlMicro: raw['pnl_micro'] === null || raw['pnl_micro'] === undefined ? null : toBig(raw['pnl_micro']),
    feeMicro: toBig(raw['fee_micro']),
    queuedMicro: toBig(raw['queued_micro']),
    rewardMintedMicro: toBig(raw['reward_minted_micro']),
    openedAt: iso(raw['opened_at'] as Date)!,
    closedAt: iso(raw['closed_at'] as Date | null),
  };
}

export interface PositionValuation {
  /** Settled PnL if closed at `mark` now; -margin when the mark is at or past the bust price. */
  pnlMicro: bigint;
  liquidatable: boolean;
  distance: Rational;
  risk: Rational;
}

/** Live estimate of an open position at the mark, with the exchange's settlement formula. */
export function valuePosition(position: PositionRow, mark: bigint, config: MarketConfig = DEFAULT_MARKET_CONFIGS[position.market]): PositionValuation {
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
