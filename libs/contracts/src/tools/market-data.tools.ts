import { z } from 'zod';
import { READ_ONLY, defineTool } from './tool-definition';
import { CHART_INTERVALS, isoTime, marketField, price, usd } from './tool-fields';

const openInterest = z.object({
  longUsd: usd,
  shortUsd: usd,
  longCapUsd: usd.nullable(),
  shortCapUsd: usd.nullable(),
  longHeadroomUsd: usd.nullable(),
  shortHeadroomUsd: usd.nullable(),
});

const marketEntry = z.object({
  market: marketField,
  markPrice: price.describe('Mark price: the venue mid, the price positions open and close at.'),
  bid: price,
  ask: price,
  priceTime: isoTime,
  priceAgeSeconds: z.number(),
  change24h: price.nullable(),
  change24hPercent: z.number().nullable(),
  volume24hUsd: usd,
  openInterest,
  minMarginUsd: usd,
  minNotionalUsd: usd,
  maxNotionalUsd: usd,
  minLeverage: z.number().int(),
  maxLeverage: z.number().int().max(1000),
  open: z.boolean(),
  status: z.enum(['open', 'paused', 'close-only']),
  priceDecimals: z.number().int(),
});

export const GET_MARKETS = defineTool({
  name: 'get_markets',
  title: 'Markets',
  description:
    'Live markets (BTC, ETH) and their trading limits: mark price (the mid positions open and close at), bid and ' +
    'ask, 24h change, 24h exchange volume, open interest against the caps, minimum margin and notional, maximum ' +
    'leverage (up to 1000x) and whether each market is open. Call it before suggesting a trade.',
  annotations: READ_ONLY,
  inputSchema: z.object({}).strict(),
  outputSchema: z.looseObject({ tradingEnabled: z.boolean(), markets: z.array(marketEntry) }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'none',
  cacheable: true,
});

const candle = z.object({
  time: z.number().int(),
  open: price,
  high: price,
  low: price,
  close: price,
  volume: z.number(),
});

export const GET_PRICE_CHART = defineTool({
  name: 'get_price_chart',
  title: 'Price chart',
  description:
    'OHLCV candles of a market from the upstream price venue, with range statistics (open, close, high, low, change, ' +
    'volume) and `chartUrl`, a link to a rendered candlestick chart a person can open in a browser.',
  annotations: { ...READ_ONLY, openWorldHint: true },
  inputSchema: z
    .object({
      market: marketField,
      interval: z.enum(CHART_INTERVALS).default('15m').describe('Candle interval.'),
      count: z.number().int().min(10).max(500).default(96).describe('Number of candles, 10 to 500.'),
    })
    .strict(),
  outputSchema: z.looseObject({
    market: marketField,
    interval: z.enum(CHART_INTERVALS),
    candles: z.array(candle).describe('Oldest first; `time` is the open time in epoch milliseconds.'),
    stats: z.object({
      open: price.nullable(),
      close: price.nullable(),
      high: price.nullable(),
      low: price.nullable(),
      change: price.nullable(),
      changePercent: z.number().nullable(),
      volume: z.number(),
      from: isoTime.nullable(),
      to: isoTime.nullable(),
    }),
    chartUrl: z.string(),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'none',
  cacheable: true,
  view: 'price-chart',
});

const dailyRow = z.object({
  day: z.string().describe('UTC day, YYYY-MM-DD.'),
  volumeUsd: usd,
  traderPnlUsd: usd,
  liquidations: z.number().int(),
  liquidatedUsd: usd,
  users: z.number().int(),
  trades: z.number().int(),
});

export const GET_PROTOCOL_STATS = defineTool({
  name: 'get_protocol_stats',
  title: 'Protocol stats',
  description:
    'Exchange analytics: TVL, locked margin, LP, lifetime volume, open positions, fees, PAPER reward-token supply ' +
    'and staking, the payout queue, and a daily history (volume, trader PnL, liquidations, users) for the last ' +
    '`days` days.',
  annotations: READ_ONLY,
  inputSchema: z
    .object({ days: z.number().int().min(1).max(365).default(14).describe('Days of history, 1 to 365.') })
    .strict(),
  outputSchema: z.looseObject({
    tradingEnabled: z.boolean(),
    tvlUsd: usd,
    marginLockedUsd: usd,
    traderBalancesUsd: usd,
    lpUsd: usd,
    lpParkedUsd: usd,
    lifetimeVolumeUsd: usd,
    openPositions: z.number().int(),
    openNotionalUsd: usd,
    feesUsd: usd,
    sweptToStakersUsd: usd,
    stakingReserveUsd: usd.describe('LP above its cap waiting for stakers (paid to the first stakers).'),
    paperSupply: z.number(),
    paperStaked: z.number(),
    payoutQueueUsd: usd.describe('Winnings owed to traders and not yet paid by the LP.'),
    payoutQueueEntries: z.number().int().describe('Queue entries still owing a trader something.'),
    payoutQueueFeesUsd: usd.describe(
      'Win fees waiting with their queue entries; collected when the harvest pays them.',
    ),
    traders: z.number().int(),
    days: z.number().int(),
    history: z.array(dailyRow).describe('Oldest first, one row per UTC day.'),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'none',
  cacheable: true,
});

const sideBucket = z.object({ notionalUsd: usd, count: z.number().int() });

export const GET_LIQUIDATION_MAP = defineTool({
  name: 'get_liquidation_map',
  title: 'Liquidation map',
  description:
    'Where open positions of a market would be liquidated: notional and position count of longs and shorts by price ' +
    'bucket around the current price (0.5% buckets, 10% either side), and the largest clusters.',
  annotations: READ_ONLY,
  inputSchema: z.object({ market: marketField }).strict(),
  outputSchema: z.looseObject({
    market: marketField,
    markPrice: price,
    bucketPercent: z.number(),
    buckets: z.array(z.object({ priceFrom: price, priceTo: price, longs: sideBucket, shorts: sideBucket })),
    largestClusters: z.array(
      z.object({
        side: z.enum(['long', 'short']),
        priceFrom: price,
        priceTo: price,
        notionalUsd: usd,
        count: z.number().int(),
        distancePercent: z.number(),
      }),
    ),
    totals: z.object({ longs: sideBucket, shorts: sideBucket }),
    outsideRange: z.object({ longs: sideBucket, shorts: sideBucket }),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'none',
  cacheable: true,
  view: 'liquidation-map',
});
