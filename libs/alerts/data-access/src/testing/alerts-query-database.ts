import { createTestDatabase } from '@paper/dev-stack';
import type { DataSource } from 'typeorm';
import { createAlertsDataSource } from '../alerts-data-source';

export interface AlertsQueryDatabase {
  dataSource: DataSource;
  /** Applies the alerts migrations (done by createAlertsQueryDatabase unless told not to). */
  migrate(): Promise<void>;
  drop(): Promise<void>;
}

/**
 * A fresh database for the query modules' integration tests, the alerts schema migrated unless `migrated` is false;
 * drop() removes it.
 */
export async function createAlertsQueryDatabase(prefix: string, migrated = true): Promise<AlertsQueryDatabase> {
  const database = await createTestDatabase(prefix);
  const dataSource = await createAlertsDataSource({
    url: database.url,
    poolSize: 2,
    applicationName: prefix,
  }).initialize();
  const migrate = async () => {
    await dataSource.query('CREATE SCHEMA IF NOT EXISTS alerts');
    await dataSource.runMigrations({ transaction: 'each' });
  };
  if (migrated) await migrate();
  return {
    dataSource,
    migrate,
    drop: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
