import { z } from 'zod';
import { READ_ONLY, defineTool } from './tool-definition';
import {
  LEADERBOARD_SORT_KEYS,
  WINDOWS,
  isoTime,
  marketField,
  price,
  sideField,
  usd,
  walletField,
  windowField,
} from './tool-fields';

export const LEADERBOARD_PAGE_SIZE = 25;

const leaderboardRow = z.object({
  rank: z.number().int().describe('1 = highest totalWindowedPnl in the window.'),
  address: z.string(),
  name: z.string().nullable(),
  lastActiveTs: z.number().int().nullable().describe('Last activity, epoch milliseconds.'),
  totalWindowedPnl: usd.describe('realizedPnl + currentUnrealizedPnl.'),
  realizedPnl: usd.describe('Settled PnL of positions closed in the window.'),
  currentUnrealizedPnl: usd,
  currentBalance: usd.describe('Free balance + locked margin + queued winnings.'),
  currentQueued: usd.describe('Winnings waiting in the payout queue.'),
  currentOpenNotional: usd,
  totalVolume: usd.describe('Notional opened and closed in the window.'),
  paperTotal: z.number().describe('PAPER reward tokens held plus staked.'),
  currentOpenPositionCount: z.number().int(),
});

export const GET_LEADERBOARD = defineTool({
  name: 'get_leaderboard',
  title: 'Leaderboard',
  description:
    'Trader leaderboard for a window (24h, 7d, 30d, all), 25 rows per page. Sort by any row field with `sortKey` ' +
    '(default `rank`, best first) and `sortDir`; `q` filters by display name or address.',
  annotations: READ_ONLY,
  inputSchema: z
    .object({
      window: windowField,
      sortKey: z.enum(LEADERBOARD_SORT_KEYS).default('rank').describe('Row field to sort by.'),
      sortDir: z.enum(['asc', 'desc']).default('asc').describe('Sort direction.'),
      page: z.number().int().min(0).max(1000).default(0).describe('Page number from 0; 25 rows per page.'),
      q: z
        .string()
        .max(64)
        .optional()
        .describe('Filter by display name or address (case-insensitive, at most 64 characters).'),
    })
    .strict(),
  outputSchema: z.looseObject({
    window: z.enum(WINDOWS),
    sortKey: z.enum(LEADERBOARD_SORT_KEYS),
    sortDir: z.enum(['asc', 'desc']),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalRows: z.number().int(),
    totalPages: z.number().int(),
    rows: z.array(leaderboardRow),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'none',
  cacheable: true,
});

const tradeStatus = z.enum(['closed', 'liquidated']);

export const GET_TOP_TRADES = defineTool({
  name: 'get_top_trades',
  title: 'Top trades',
  description: 'The most profitable positions closed in a window (24h, 7d, 30d, all), best first, at most 25.',
  annotations: READ_ONLY,
  inputSchema: z.object({ window: windowField }).strict(),
  outputSchema: z.looseObject({
    window: z.enum(WINDOWS),
    trades: z.array(
      z.object({
        positionId: z.string(),
        trader: z.string(),
        market: marketField,
        side: sideField,
        leverage: z.number().int(),
        marginUsd: usd,
        entryPrice: price,
        exitPrice: price,
        pnlUsd: usd,
        pnlPercent: z.number().describe('PnL relative to the margin.'),
        status: tradeStatus,
        closedAt: isoTime,
      }),
    ),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'none',
  cacheable: true,
});

export const GET_RECENT_TRADES = defineTool({
  name: 'get_recent_trades',
  title: 'Recent trades',
  description:
    'The latest 50 opens, closes and liquidations on the exchange, newest first, optionally for one market and/or ' +
    'one wallet.',
  annotations: READ_ONLY,
  inputSchema: z
    .object({
      market: marketField.optional().describe('Only this market.'),
      wallet: walletField.optional().describe('Only this wallet.'),
    })
    .strict(),
  outputSchema: z.looseObject({
    market: marketField.nullable(),
    wallet: z.string().nullable(),
    trades: z.array(
      z.object({
        type: z.enum(['open', 'close', 'liquidation']),
        positionId: z.string(),
        trader: z.string(),
        market: marketField,
        side: sideField,
        leverage: z.number().int(),
        marginUsd: usd,
        notionalUsd: usd,
        price: price.describe('Entry price for an open, exit price otherwise.'),
        pnlUsd: usd.nullable(),
        time: isoTime,
      }),
    ),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'none',
  cacheable: true,
});
