import { type QueryExecutor, queryAffected } from '@paper/sql-rows';

/** Unexpected failures after which an intent or owner action is refused instead of tried again. */
export const MAX_EXECUTION_ATTEMPTS = 3;

/** A final result to store once the attempts are used up. */
export interface FailedFinal {
  status: 'refused';
  reason: string;
  message: string;
  result: unknown;
  executedAt: string;
}

/**
 * Counts an unexpected failure of an inbox row (`exchange.intents` or `exchange.owner_actions`) that was
 * run on its own while the database answered (so the failure is the row's, not an outage). Below
 * MAX_EXECUTION_ATTEMPTS the row stays queued for another attempt; at the limit it ends `refused` with
 * `final`. Returns whether the row is now final.
 */
export async function recordFailedAttempt(
  db: QueryExecutor,
  table: 'intents' | 'owner_actions',
  row: { id: string; attempts: number },
  error: unknown,
  final: () => FailedFinal,
): Promise<boolean> {
  const detail = String((error as Error)?.message ?? error).slice(0, 500);
  if (row.attempts + 1 < MAX_EXECUTION_ATTEMPTS) {
    await db.query(
      `UPDATE exchange.${table} SET attempts = attempts + 1, last_error = $2 WHERE id = $1 AND status = 'queued'`,
      [row.id, detail],
    );
    return false;
  }
  const f = final();
  const changed = await queryAffected(
    db,
    `UPDATE exchange.${table} SET attempts = attempts + 1, last_error = $2, status = $3, reason = $4, message = $5,
       result = $6, executed_at = $7
      WHERE id = $1 AND status = 'queued'`,
    [row.id, detail, f.status, f.reason, f.message, JSON.stringify(f.result), f.executedAt],
  );
  return changed === 1;
}
