import {
  EXCHANGE_EVENT_DATA,
  type ExchangeEvent,
  type GET_ACCOUNT,
  type GET_EVENTS,
  type GET_LEADERBOARD,
  type GET_MARKETS,
  type GET_PROTOCOL_STATS,
  type GET_RECENT_TRADES,
  type ToolData,
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

const TRADE_TYPES = {
  'position.opened': 'open',
  'position.closed': 'close',
  'position.liquidated': 'liquidation',
} as const satisfies Partial<Record<ExchangeEvent['type'], TradeEvent['type']>>;

const isTradeType = (type: ExchangeEvent['type']): type is keyof typeof TRADE_TYPES => type in TRADE_TYPES;

/**
 * A trade of the exchange's event log as the recent-trades feed reports it: null for other events, and for
 * an event whose data does not parse by its type's schema in the contracts.
 */
export function tradeOfEvent(event: ExchangeEvent): TradeEvent | null {
  if (!isTradeType(event.type) || !event.wallet) return null;
  const type = TRADE_TYPES[event.type];
  const parsed = EXCHANGE_EVENT_DATA[event.type].safeParse(event.data);
  if (!parsed.success) return null;
  const d = parsed.data;
  const settled = 'exitPrice' in d ? d : null;
  return {
    type,
    positionId: d.positionId,
    trader: event.wallet,
    market: d.market,
    side: d.side,
    leverage: d.leverage,
    marginUsd: d.marginUsd,
    notionalUsd: d.notionalUsd,
    price: settled ? settled.exitPrice : d.entryPrice,
    pnlUsd: settled ? settled.pnlUsd : null,
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
