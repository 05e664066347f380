import type { ExchangeEvent } from '@paper/contracts';
import type { MarketName } from '@paper/markets';
import type {
  AccountData,
  AccountPosition,
  AccountSessionKey,
  EventsData,
  LeaderboardData,
  MarketsData,
  ProtocolStatsData,
  RecentTradesData,
  TradeEvent,
} from '../tool-api/tool-data';

/**
 * Complete `data` of the tools the poller reads, shaped by the tool catalog's output schemas (the tool-fixtures
 * spec parses every builder's output with its tool's schema). Each builder takes the fields a test cares about
 * as overrides.
 */

export const FIXTURE_WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';
const TIME = '2030-01-01T00:00:00.000Z';

type MarketEntry = MarketsData['markets'][number];
type LeaderboardRow = LeaderboardData['rows'][number];

const MARKS: Record<MarketName, { markPrice: number; tick: number; decimals: number }> = {
  BTC: { markPrice: 100_000, tick: 0.1, decimals: 1 },
  ETH: { markPrice: 3500, tick: 0.01, decimals: 2 },
};

/** One market of get_markets, open, at `markPrice` (bid and ask one tick either side). */
export function market(name: MarketName, overrides: Partial<MarketEntry> = {}): MarketEntry {
  const { markPrice: defaultMark, tick, decimals } = MARKS[name];
  const markPrice = overrides.markPrice ?? defaultMark;
  return {
    market: name,
    markPrice,
    bid: markPrice - tick,
    ask: markPrice + tick,
    priceTime: TIME,
    priceAgeSeconds: 1,
    change24h: 0,
    change24hPercent: 0,
    volume24hUsd: 0,
    openInterest: {
      longUsd: 0,
      shortUsd: 0,
      longCapUsd: null,
      shortCapUsd: null,
      longHeadroomUsd: null,
      shortHeadroomUsd: null,
    },
    minMarginUsd: 1,
    minNotionalUsd: 10,
    maxNotionalUsd: 10_000_000,
    minLeverage: 1,
    maxLeverage: 1000,
    open: true,
    status: 'open',
    priceDecimals: decimals,
    ...overrides,
  };
}

/** get_markets: BTC and ETH, each with its overrides (`markets({ BTC: { markPrice: 99_400 } })`). */
export function markets(
  overrides: Partial<Record<MarketName, Partial<MarketEntry>>> = {},
  tradingEnabled = true,
): MarketsData {
  return { tradingEnabled, markets: [market('BTC', overrides.BTC), market('ETH', overrides.ETH)] };
}

/** An open position of get_account: a 100x BTC long of 100 USDC at 100,000, at the entry price. */
export function position(id: string, overrides: Partial<AccountPosition> = {}): AccountPosition {
  return {
    positionId: id,
    market: 'BTC',
    side: 'long',
    marginUsd: 100,
    leverage: 100,
    notionalUsd: 10_000,
    entryPrice: 100_000,
    markPrice: 100_000,
    bustPrice: 99_047.6,
    estimatedPnlUsd: 0,
    estimatedPnlPercent: 0,
    liquidationDistancePercent: 0.9524,
    liquidationRiskPercent: 0,
    openedAt: TIME,
    ...overrides,
  };
}

/** An active session key of get_account, without guardrails. */
export function sessionKey(overrides: Partial<AccountSessionKey> = {}): AccountSessionKey {
  return {
    address: '0x00000000000000000000000000000000000000ee',
    label: 'bot',
    active: true,
    expiresAt: '2030-02-01T00:00:00.000Z',
    revokedAt: null,
    guardrails: {
      maxMarginPerTradeUsd: null,
      maxLeverage: null,
      maxDailyNotionalUsd: null,
      maxOpenPositions: null,
      allowedMarkets: null,
      requireConfirmation: false,
    },
    ...overrides,
  };
}

/** get_account of {@link FIXTURE_WALLET}: 900 USDC free, 100 locked, nothing open. */
export function account(overrides: Partial<AccountData> = {}): AccountData {
  return {
    wallet: FIXTURE_WALLET,
    exists: true,
    displayName: null,
    freeUsd: 900,
    lockedUsd: 100,
    queuedUsd: 0,
    unrealizedPnlUsd: 0,
    equityUsd: 1000,
    paper: 0,
    paperStaked: 0,
    positions: [],
    pendingIntents: [],
    sessionKeys: [],
    lifetime: {
      realizedPnlUsd: 0,
      volumeUsd: 0,
      feesPaidUsd: 0,
      stakingRewardsUsd: 0,
      trades: 0,
      wins: 0,
      losses: 0,
      liquidations: 0,
    },
    ...overrides,
  };
}

/** A trade of get_recent_trades by {@link FIXTURE_WALLET}: a 100x BTC long of 100 USDC at 100,000 (a loss once settled). */
export function trade(type: TradeEvent['type'], positionId: string, overrides: Partial<TradeEvent> = {}): TradeEvent {
  return {
    type,
    positionId,
    trader: FIXTURE_WALLET,
    market: 'BTC',
    side: 'long',
    leverage: 100,
    marginUsd: 100,
    notionalUsd: 10_000,
    price: 100_000,
    pnlUsd: type === 'open' ? null : -100,
    time: TIME,
    ...overrides,
  };
}

/** get_recent_trades: the global feed, or the feed of one market or wallet. */
export function recentTrades(
  trades: TradeEvent[],
  filter: { market?: MarketName; wallet?: string } = {},
): RecentTradesData {
  return { market: filter.market ?? null, wallet: filter.wallet ?? null, trades };
}

/** A row of get_leaderboard: a trader without PnL, volume or open positions. */
export function trader(address: string, overrides: Partial<LeaderboardRow> = {}): LeaderboardRow {
  return {
    rank: 1,
    address,
    name: null,
    lastActiveTs: null,
    totalWindowedPnl: 0,
    realizedPnl: 0,
    currentUnrealizedPnl: 0,
    currentBalance: 0,
    currentQueued: 0,
    currentOpenNotional: 0,
    totalVolume: 0,
    paperTotal: 0,
    currentOpenPositionCount: 0,
    ...overrides,
  };
}

/** A page of get_leaderboard as the poller asks for it (window `all`, in address order), of `totalRows` traders. */
export function traderPage(page: number, rows: LeaderboardRow[], totalRows = rows.length): LeaderboardData {
  return {
    window: 'all',
    sortKey: 'address',
    sortDir: 'asc',
    page,
    pageSize: 25,
    totalRows,
    totalPages: Math.ceil(totalRows / 25),
    rows,
  };
}

/** get_protocol_stats of one day, with an empty exchange. */
export function protocolStats(overrides: Partial<ProtocolStatsData> = {}): ProtocolStatsData {
  return {
    tradingEnabled: true,
    tvlUsd: 0,
    marginLockedUsd: 0,
    traderBalancesUsd: 0,
    lpUsd: 0,
    lpParkedUsd: 0,
    lifetimeVolumeUsd: 0,
    openPositions: 0,
    openNotionalUsd: 0,
    feesUsd: 0,
    sweptToStakersUsd: 0,
    stakingReserveUsd: 0,
    paperSupply: 0,
    paperStaked: 0,
    payoutQueueUsd: 0,
    payoutQueueEntries: 0,
    payoutQueueFeesUsd: 0,
    traders: 0,
    days: 1,
    history: [],
    ...overrides,
  };
}

const EVENT_TYPES = {
  open: 'position.opened',
  close: 'position.closed',
  liquidation: 'position.liquidated',
} as const satisfies Record<TradeEvent['type'], ExchangeEvent['type']>;

/** A trade as the exchange's event log records it (`tradeOfEvent` reads it back as `t`). */
export function tradeLogEvent(id: string, t: TradeEvent): ExchangeEvent {
  const terms = {
    positionId: t.positionId,
    market: t.market,
    side: t.side,
    leverage: t.leverage,
    marginUsd: t.marginUsd,
    notionalUsd: t.notionalUsd,
    bustPrice: t.side === 'long' ? t.price * 0.99 : t.price * 1.01,
  };
  const data =
    t.type === 'open'
      ? { ...terms, entryPrice: t.price, intentId: `i${id}` }
      : {
          ...terms,
          entryPrice: t.price,
          exitPrice: t.price,
          pnlUsd: t.pnlUsd ?? 0,
          feeUsd: 0,
          paidUsd: 0,
          queuedUsd: 0,
          rewardMinted: 0,
          intentId: t.type === 'close' ? `i${id}` : null,
        };
  return { id, type: EVENT_TYPES[t.type], time: t.time, wallet: t.trader, market: t.market, data };
}

/** A page of get_events after `after`: the last page unless `more`. */
export function eventsPage(events: ExchangeEvent[], after = '0', more = false): EventsData {
  const nextCursor = events.at(-1)?.id ?? after;
  return { events, nextCursor, reset: false, more, latestCursor: nextCursor };
}
