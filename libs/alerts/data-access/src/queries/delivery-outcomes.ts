import type { QueryExecutor } from '@paper/sql-rows';

// The outcome of an attempt on a claimed delivery. Every write checks that the delivery is still
// `sending`: a delivery re-claimed after its lease lapsed is never overwritten by a late outcome.

/** Keeps these claimed deliveries claimed (their lease runs from the last renewal). */
export async function renewDeliveryClaims(db: QueryExecutor, ids: readonly string[]): Promise<void> {
  await db.query(`UPDATE alerts.deliveries SET updated_at = now() WHERE id = ANY($1::uuid[]) AND status = 'sending'`, [
    ids,
  ]);
}

/**
 * A claimed delivery that may not be sent yet (its destination's rate limit): the attempt is given back and it is due
 * again at `at`.
 */
export async function postponeDelivery(db: QueryExecutor, id: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE alerts.deliveries SET status = CASE WHEN attempts > 1 THEN 'failed' ELSE 'queued' END, attempts = greatest(attempts - 1, 0), next_attempt_at = $2, updated_at = now()
        WHERE id = $1 AND status = 'sending'`,
    [id, at],
  );
}

/** These claimed deliveries were delivered; their channels are healthy again (failure tracking reset). */
export async function markDelivered(db: QueryExecutor, ids: readonly string[]): Promise<void> {
  await db.query(
    `WITH done AS (
       UPDATE alerts.deliveries SET status = 'delivered', delivered_at = now(), last_error = NULL, next_attempt_at = NULL, updated_at = now()
        WHERE id = ANY($1::uuid[]) AND status = 'sending'
       RETURNING channel_id)
     UPDATE alerts.channels c SET failing_since = NULL, failed_attempts = 0
       FROM (SELECT DISTINCT channel_id FROM done) d
      WHERE c.id = d.channel_id AND c.failing_since IS NOT NULL`,
    [ids],
  );
}

/** The attempt failed: the delivery is tried again at `at`. */
export async function retryDeliveryLater(db: QueryExecutor, id: string, reason: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE alerts.deliveries SET status = 'failed', last_error = $2, next_attempt_at = $3, updated_at = now() WHERE id = $1 AND status = 'sending'`,
    [id, reason.slice(0, 500), at],
  );
}

/**
 * The receiver answered 429: the attempt is given back (it did not fail), the rate-limited count goes up, the next
 * attempt is at `at`.
 */
export async function recordRateLimited(db: QueryExecutor, id: string, reason: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE alerts.deliveries SET status = 'failed', attempts = greatest(attempts - 1, 0), rate_limited = rate_limited + 1, last_error = $2, next_attempt_at = $3, updated_at = now()
        WHERE id = $1 AND status = 'sending'`,
    [id, reason.slice(0, 500), at],
  );
}

/** Dead letter (re-queued only by its owner); `unsent` gives the claimed attempt back (nothing was sent). */
export async function deadLetterDelivery(
  db: QueryExecutor,
  id: string,
  reason: string,
  unsent: boolean,
): Promise<void> {
  await db.query(
    `UPDATE alerts.deliveries SET status = 'dead', last_error = $2, next_attempt_at = NULL, attempts = CASE WHEN $3 THEN greatest(attempts - 1, 0) ELSE attempts END, updated_at = now()
        WHERE id = $1 AND status = 'sending'`,
    [id, reason.slice(0, 500), unsent],
  );
}
