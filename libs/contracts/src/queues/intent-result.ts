import { MARKET_NAMES } from '@paper/markets';
import { z } from 'zod';

/**
 * What trading-executor stores in `exchange.intents.result` once an intent ran, and publishes on the
 * intent-results channel. Money as USDC decimal strings, prices as decimal strings, PAPER as a decimal
 * string with 6 decimals. A resubmission of the same intent returns the stored result unchanged.
 */
export const INTENT_FINAL_STATUSES = ['executed', 'refused', 'cancelled', 'expired'] as const;
export type IntentFinalStatus = (typeof INTENT_FINAL_STATUSES)[number];

const side = z.enum(['long', 'short']);

export const openedPositionResultSchema = z.object({
  positionId: z.string(),
  market: z.enum(MARKET_NAMES),
  side,
  marginUsd: z.string(),
  leverage: z.number(),
  notionalUsd: z.string(),
  entryPrice: z.string(),
  bustPrice: z.string(),
  /** Margin taken from queued winnings (the rest from the free balance). */
  marginFromQueuedUsd: z.string(),
});
export type OpenedPositionResult = z.infer<typeof openedPositionResultSchema>;

export const closedPositionResultSchema = z.object({
  positionId: z.string(),
  /** `closed` by this intent, or found `already_closed` / `already_liquidated`. */
  outcome: z.enum(['closed', 'already_closed', 'already_liquidated']),
  market: z.enum(MARKET_NAMES),
  side,
  entryPrice: z.string(),
  exitPrice: z.string().nullable(),
  /** Settled PnL: the payout after win curve and fee for a win, minus the loss otherwise. */
  pnlUsd: z.string().nullable(),
  feeUsd: z.string().nullable(),
  /** Paid now from the LP (wins). */
  paidUsd: z.string().nullable(),
  /** Waiting in the payout queue (wins the LP could not pay yet). */
  queuedUsd: z.string().nullable(),
  /** Reward token minted for a loss. */
  rewardMinted: z.string().nullable(),
});
export type ClosedPositionResult = z.infer<typeof closedPositionResultSchema>;

export const intentResultSchema = z.object({
  intentId: z.string(),
  kind: z.enum(['open', 'close', 'cancel']),
  wallet: z.string(),
  status: z.enum(INTENT_FINAL_STATUSES),
  /**
   * Refusal code when refused (an open refusal of @paper/exchange, bad_signature, session_key_*, intent_*,
   * price_unavailable, position_not_found, ...).
   */
  reason: z.string().nullable(),
  /** A sentence for the end user: what happened, or why not and how to fix it. */
  message: z.string(),
  /** ISO time the executor settled the intent. */
  executedAt: z.string(),
  opened: openedPositionResultSchema.optional(),
  closed: z.array(closedPositionResultSchema).optional(),
  /** The intent a cancel intent cancelled. */
  cancelledIntentId: z.string().optional(),
});
export type IntentResult = z.infer<typeof intentResultSchema>;

/** Whether a value (a stored result, an element of a results message) is an intent's final result. */
export function isIntentResult(value: unknown): value is IntentResult {
  return intentResultSchema.safeParse(value).success;
}

/**
 * Redis pub/sub channel on which trading-executor publishes the results of each batch it committed, one
 * message per batch (a JSON array of {@link IntentResult}). It only shortens waits: a message missed
 * (Redis down, subscriber reconnecting) leaves the result in `exchange.intents`, where waiters read it.
 */
export const intentResultsChannel = (prefix: string): string => `${prefix}:intents:results`;

/** The results of one message of {@link intentResultsChannel}; anything else in it is ignored. */
export function parseIntentResults(message: string): IntentResult[] {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = intentResultSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** What trading-executor returns for a session-key job. */
export interface SessionKeyResult {
  status: 'registered' | 'revoked' | 'refused' | 'not_found';
  wallet: string;
  sessionKey: string;
  reason: string | null;
  message: string;
  depositAddress?: string;
  expiresAt?: string;
}
