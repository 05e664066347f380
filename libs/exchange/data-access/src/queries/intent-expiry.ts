import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { intentKind } from './row-fields';

/** An intent the expiry sweep stored as expired. */
export const ExpiredIntentRow = z.object({ id: z.string(), kind: intentKind, wallet: z.string() });
export type ExpiredIntentRow = z.infer<typeof ExpiredIntentRow>;

/**
 * Stores queued intents past their signed expiry, or accepted more than `ttlSeconds` ago, as `expired`
 * with this refusal (set-based, at most 10 000, oldest first). Rows a batch holds are skipped (`SKIP LOCKED`).
 */
export function expireQueuedIntents(
  db: QueryExecutor,
  ttlSeconds: number,
  outcome: { reason: string | null; message: string },
): Promise<ExpiredIntentRow[]> {
  return queryRows<ExpiredIntentRow>(
    db,
    `WITH due AS (
       SELECT id FROM exchange.intents
        WHERE status = 'queued' AND (expires_at <= now() OR created_at < now() - make_interval(secs => $1))
        ORDER BY created_at LIMIT 10000 FOR UPDATE SKIP LOCKED
     )
     UPDATE exchange.intents i
        SET status = 'expired', reason = $2::text, message = $3::text, executed_at = now(),
            result = jsonb_build_object('intentId', i.id, 'kind', i.kind, 'wallet', i.wallet, 'status', 'expired',
                                        'reason', $2::text, 'message', $3::text,
                                        'executedAt',
                                        to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
       FROM due WHERE i.id = due.id
     RETURNING i.id, i.kind, i.wallet`,
    [ttlSeconds, outcome.reason, outcome.message],
  );
}
