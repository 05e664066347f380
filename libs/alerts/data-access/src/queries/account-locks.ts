import type { QueryExecutor } from '@paper/sql-rows';

/**
 * Locks the account row (FOR UPDATE) until the caller's transaction ends: serialises changes that are
 * limited per account (count-then-insert, such as channels and watches). Pass the transaction's manager.
 */
export async function lockAlertsAccount(db: QueryExecutor, accountId: string): Promise<void> {
  await db.query('SELECT id FROM alerts.accounts WHERE id = $1 FOR UPDATE', [accountId]);
}
