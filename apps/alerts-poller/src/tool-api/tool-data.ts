import type { GET_ACCOUNT, GET_LEADERBOARD, GET_MARKETS, GET_PROTOCOL_STATS, GET_RECENT_TRADES, ToolData } from '@paper/contracts';
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

export type { MarketName };
/** Mark price per market, from get_markets. */
export type Marks = Partial<Record<MarketName, number>>;

export function marksOf(markets: MarketsData): Marks {
  const marks: Marks = {};
  for (const m of markets.markets) marks[m.market] = m.markPrice;
  return marks;
}
