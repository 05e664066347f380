import { type QueryExecutor, queryAffected, queryRow } from '@paper/sql-rows';

/** Whether the migration `name` is recorded in `alerts.migrations` (false while that table does not exist yet). */
export async function isAlertsMigrationApplied(db: QueryExecutor, name: string): Promise<boolean> {
  const table = await queryRow<{ present: boolean }>(
    db,
    `SELECT to_regclass('alerts.migrations') IS NOT NULL AS present`,
  );
  if (!table?.present) return false;
  return (await queryAffected(db, `SELECT 1 FROM alerts.migrations WHERE name = $1`, [name])) > 0;
}
