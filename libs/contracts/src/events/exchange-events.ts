import { z } from 'zod';
import { isoTime, marketField, price, sideField, usd } from '../tools/tool-fields';

/**
 * The exchange's event log: one record per change, written in the same transaction as the change,
 * served as server-sent events (`/api/v1/events`, `/api/v1/me/events`) and by the `get_events` tool.
 * Field names are the tools' own (`positionId`, `marginUsd`, `entryPrice`, ...); amounts are USDC numbers
 * with at most 6 decimals and prices numbers at the market's precision, as in tool results.
 */

/** Every type of logged event, by what it records. */
export const EXCHANGE_EVENT_TYPES = [
  'intent.accepted',
  'intent.executed',
  'intent.refused',
  'intent.cancelled',
  'intent.expired',
  'position.opened',
  'position.closed',
  'position.liquidated',
  'deposit.credited',
  'payout.paid',
  'withdrawal.completed',
  'stake.staked',
  'stake.unstaked',
  'rewards.claimed',
  'market.status',
] as const;
export type ExchangeEventType = (typeof EXCHANGE_EVENT_TYPES)[number];

/** Live-only stream events: never stored in the log, never replayed, carry no cursor. */
export const LIVE_EVENT_TYPES = ['price'] as const;
/** Control events of the streams (documented in docs/tool-api.md). */
export const STREAM_CONTROL_EVENTS = { reset: 'reset', close: 'close' } as const;

/** Types any client may see on the public stream (trades and market status; `price` is live-only). */
export const PUBLIC_EVENT_TYPES = [
  'position.opened',
  'position.closed',
  'position.liquidated',
  'market.status',
] as const satisfies readonly ExchangeEventType[];

const intentKind = z.enum(['open', 'close', 'cancel']);
const marketStatus = z.enum(['open', 'paused', 'close-only']);
const ownerActionKind = z.enum(['withdraw', 'stake', 'unstake', 'claim_rewards']);

const intentFields = {
  intentId: z.string(),
  kind: z.union([intentKind, ownerActionKind]),
};

const positionFields = {
  positionId: z.string(),
  market: marketField,
  side: sideField,
  leverage: z.number().int(),
  marginUsd: usd,
  notionalUsd: usd,
  entryPrice: price,
  bustPrice: price,
};

const settledFields = {
  ...positionFields,
  exitPrice: price,
  pnlUsd: usd.describe('Settled PnL: the payout after win curve and fee for a win, minus the loss otherwise.'),
  feeUsd: usd,
  paidUsd: usd.describe('Paid now from the LP.'),
  queuedUsd: usd.describe('Appended to the payout queue.'),
  rewardMinted: z.number().describe('PAPER minted for a loss.'),
  /** The close intent, or null for a liquidation by the exchange. */
  intentId: z.string().nullable(),
};

/** The data of each logged event type (the SSE `data:` object is the event record below). */
export const EXCHANGE_EVENT_DATA = {
  'intent.accepted': z.object(intentFields),
  'intent.executed': z.object({ ...intentFields, message: z.string() }),
  'intent.refused': z.object({ ...intentFields, reason: z.string(), message: z.string() }),
  'intent.cancelled': z.object({ ...intentFields, cancelledBy: z.string().nullable(), message: z.string() }),
  'intent.expired': z.object({ ...intentFields, message: z.string() }),
  'position.opened': z.object({ ...positionFields, intentId: z.string() }),
  'position.closed': z.object(settledFields),
  'position.liquidated': z.object(settledFields),
  'deposit.credited': z.object({
    amountUsd: usd,
    feeUsd: usd.describe('One-time activation fee taken from the first deposit.'),
    txHash: z.string().nullable(),
  }),
  'payout.paid': z.object({ amountUsd: usd, positionId: z.string().nullable(), remainingQueuedUsd: usd }),
  'withdrawal.completed': z.object({ amountUsd: usd, to: z.string(), intentId: z.string() }),
  'stake.staked': z.object({ amount: z.number().describe('PAPER staked.'), intentId: z.string() }),
  'stake.unstaked': z.object({ amount: z.number().describe('PAPER unstaked.'), intentId: z.string() }),
  'rewards.claimed': z.object({ amountUsd: usd, intentId: z.string() }),
  'market.status': z.object({ market: marketField, status: marketStatus, previous: marketStatus }),
} as const satisfies Record<ExchangeEventType, z.ZodObject>;

export type ExchangeEventData<T extends ExchangeEventType> = z.infer<(typeof EXCHANGE_EVENT_DATA)[T]>;

/** One logged event as clients see it (SSE `data:`, `get_events` items). */
export const exchangeEventSchema = z.object({
  id: z.string().regex(/^\d+$/).describe('Strictly increasing cursor (a decimal string); the SSE `id:`.'),
  type: z.enum(EXCHANGE_EVENT_TYPES),
  time: isoTime,
  wallet: z.string().nullable().describe('The wallet the event belongs to, lower case; null for market events.'),
  market: marketField.nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type ExchangeEvent = z.infer<typeof exchangeEventSchema>;

/** A live price tick on the public stream (SSE `event: price`, no `id:`). */
export const priceEventSchema = z.object({
  market: marketField,
  markPrice: price,
  bid: price,
  ask: price,
  time: isoTime,
});
export type PriceEvent = z.infer<typeof priceEventSchema>;

/** The `data:` of an SSE price frame; null when it is not JSON or not a price tick. */
export function parsePriceEvent(data: string): PriceEvent | null {
  try {
    const parsed = priceEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The SSE paths on the tool API's base URL. */
export const EVENT_STREAM_PATHS = { public: '/api/v1/events', me: '/api/v1/me/events' } as const;

/** Stream timing advice: `retry:` sent to clients, heartbeat comment interval. */
export const EVENT_STREAM_RETRY_MS = 2000;
export const EVENT_STREAM_HEARTBEAT_MS = 15_000;

/** Default and bounds of `get_events` / replay pages. */
export const EVENT_PAGE_DEFAULT = 100;
export const EVENT_PAGE_MAX = 500;

/** PostgreSQL NOTIFY channel that wakes stream servers after an event commit (payload: the highest id). */
export const EXCHANGE_EVENTS_CHANNEL = 'exchange_events';
