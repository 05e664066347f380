import type {
  ExchangeEvent,
  GET_ACCOUNT,
  GET_EVENTS,
  GET_LEADERBOARD,
  GET_MARKETS,
  GET_PROTOCOL_STATS,
  GET_RECENT_TRADES,
  ToolData,
} from '@paper/contracts';
import type { MarketName } from '@paper/markets';

/** The `data` of the public tools the poller reads (field names from the tool catalog). */
export type RecentTradesData = ToolData<typeof GET_RECENT_TRADES>;
export type TradeEvent = RecentTradesData['trades'][number];
export type AccountData = ToolData<typeof GET_ACCOUNT>;
export type AccountPosition = AccountData['positions'][number];
export type AccountSessionKey = AccountData['sessionKeys'][number];
export type MarketsData = ToolData<typeof GET_MARKETS>;
export type ProtocolStatsData = ToolData<typeof GET_PROTOCOL_STATS>;
export type LeaderboardData = ToolData<typeof GET_LEADERBOARD>;
export type EventsData = ToolData<typeof GET_EVENTS>;

const TRADE_TYPES: Record<string, TradeEvent['type']> = {
  'position.opened': 'open',
  'position.closed': 'close',
  'position.liquidated': 'liquidation',
};

/** A trade of the exchange's event log as the recent-trades feed reports it (null for other events). */
export function tradeOfEvent(event: ExchangeEvent): TradeEvent | null {
  const type = TRADE_TYPES[event.type];
  if (!type || !event.wallet) return null;
  const d = event.data as {
    positionId: string;
    market: MarketName;
    side: 'long' | 'short';
    leverage: number;
    marginUsd: number;
    notionalUsd: number;
    entryPrice: number;
    exitPrice?: number;
    pnlUsd?: number;
  };
  return {
    type,
    positionId: d.positionId,
    trader: event.wallet,
    market: d.market,
    side: d.side,
    leverage: d.leverage,
    marginUsd: d.marginUsd,
    notionalUsd: d.notionalUsd,
    price: type === 'open' ? d.entryPrice : (d.exitPrice ?? d.entryPrice),
    pnlUsd: type === 'open' ? null : (d.pnlUsd ?? null),
    time: event.time,
  };
}

export type { MarketName };
/** Mark price per market, from get_markets. */
export type Marks = Partial<Record<MarketName, number>>;

export function marksOf(markets: MarketsData): Marks {
  const marks: Marks = {};
  for (const m of markets.markets) marks[m.market] = m.markPrice;
  return marks;
}
