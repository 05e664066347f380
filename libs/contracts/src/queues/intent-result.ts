import type { MarketName } from '@paper/markets';

/**
 * What trading-executor stores in `exchange.intents.result` once an intent ran, and publishes on the
 * intent-results channel. Money as USDC decimal strings, prices as decimal strings, PAPER as a decimal
 * string with 6 decimals. A resubmission of the same intent returns the stored result unchanged.
 */
export type IntentFinalStatus = 'executed' | 'refused' | 'cancelled' | 'expired';

export interface OpenedPositionResult {
  positionId: string;
  market: MarketName;
  side: 'long' | 'short';
  marginUsd: string;
  leverage: number;
  notionalUsd: string;
  entryPrice: string;
  bustPrice: string;
  /** Margin taken from queued winnings (the rest from the free balance). */
  marginFromQueuedUsd: string;
}

export interface ClosedPositionResult {
  positionId: string;
  /** `closed` by this intent, or found `already_closed` / `already_liquidated`. */
  outcome: 'closed' | 'already_closed' | 'already_liquidated';
  market: MarketName;
  side: 'long' | 'short';
  entryPrice: string;
  exitPrice: string | null;
  /** Settled PnL: the payout after win curve and fee for a win, minus the loss otherwise. */
  pnlUsd: string | null;
  feeUsd: string | null;
  /** Paid now from the LP (wins). */
  paidUsd: string | null;
  /** Waiting in the payout queue (wins the LP could not pay yet). */
  queuedUsd: string | null;
  /** Reward token minted for a loss. */
  rewardMinted: string | null;
}

export interface IntentResult {
  intentId: string;
  kind: 'open' | 'close' | 'cancel';
  wallet: string;
  status: IntentFinalStatus;
  /**
   * Refusal code when refused (an open refusal of @paper/exchange, bad_signature, session_key_*, intent_*,
   * price_unavailable, position_not_found, ...).
   */
  reason: string | null;
  /** A sentence for the end user: what happened, or why not and how to fix it. */
  message: string;
  /** ISO time the executor settled the intent. */
  executedAt: string;
  opened?: OpenedPositionResult;
  closed?: ClosedPositionResult[];
  /** The intent a cancel intent cancelled. */
  cancelledIntentId?: string;
}

/** Whether a value (a job's return value) is an intent's final result. */
export function isIntentResult(value: unknown): value is IntentResult {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['intentId'] === 'string' &&
    typeof v['status'] === 'string' &&
    typeof v['message'] === 'string' &&
    typeof v['kind'] === 'string'
  );
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
  return Array.isArray(value) ? value.filter(isIntentResult) : [];
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
