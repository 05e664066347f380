import { z } from 'zod';

/**
 * Row types of the batch's own statements (beside the batch, see the README), derived from zod schemas
 * that batch-rows.int-spec.ts parses against the database; the batch itself never parses them.
 */

const int8 = z.string().regex(/^-?\d+$/);

/** A queued `exchange.intents` row claimed (row-locked) by a batch transaction. */
export const ClaimedIntentRow = z.object({
  id: z.string(),
  wallet: z.string(),
  /** open, close or cancel (a CHECK constraint of the table). */
  kind: z.enum(['open', 'close', 'cancel']),
  payload: z.unknown(),
  session_key: z.string(),
  signature: z.string(),
  created_at: z.date(),
  attempts: z.number().int(),
});
export type ClaimedIntentRow = z.infer<typeof ClaimedIntentRow>;

/** The intent a cancel names, when the batch does not hold it. */
export const CancelTargetRow = z.object({
  wallet: z.string(),
  kind: z.enum(['open', 'close', 'cancel']),
  status: z.string(),
});
export type CancelTargetRow = z.infer<typeof CancelTargetRow>;

/** A cancel's claim of its queued target. */
export const ClaimedTargetRow = z.object({ id: z.string() });
export type ClaimedTargetRow = z.infer<typeof ClaimedTargetRow>;

/** Notional a wallet opened in the guardrails' day (a sum of bigints: numeric). */
export const DailyNotionalRow = z.object({ wallet: z.string(), total: z.string().regex(/^-?\d+(\.\d+)?$/) });
export type DailyNotionalRow = z.infer<typeof DailyNotionalRow>;

/** How many positions a wallet holds open. */
export const OpenCountRow = z.object({ wallet: z.string(), n: int8 });
export type OpenCountRow = z.infer<typeof OpenCountRow>;

/** A position the batch opened: its id and the intent that opened it. */
export const OpenedPositionRow = z.object({ id: int8, open_intent_id: z.string() });
export type OpenedPositionRow = z.infer<typeof OpenedPositionRow>;
