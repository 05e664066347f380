import type { DataSource } from 'typeorm';

/** One round trip to PostgreSQL (`SELECT 1`); rejects when the database does not answer. */
export async function pingDatabase(dataSource: DataSource): Promise<void> {
  await dataSource.query('SELECT 1');
}

/** Whether PostgreSQL answers now: tells an outage apart from a failure of the work itself. */
export function databaseAnswers(dataSource: DataSource): Promise<boolean> {
  return pingDatabase(dataSource).then(
    () => true,
    () => false,
  );
}
