import { LATEST_ALERTS_MIGRATION } from '../migrations';
import { createAlertsQueryDatabase, type AlertsQueryDatabase } from '../testing/alerts-query-database';
import { isAlertsMigrationApplied } from './schema-migrations';

describe('alerts schema migration check (PostgreSQL)', () => {
  let database: AlertsQueryDatabase;

  beforeAll(async () => {
    database = await createAlertsQueryDatabase('alerts_schema_migrations', false);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('is false before the schema exists and true once the migration is recorded', async () => {
    const db = database.dataSource;
    await expect(isAlertsMigrationApplied(db, LATEST_ALERTS_MIGRATION)).resolves.toBe(false);
    await database.migrate();
    await expect(isAlertsMigrationApplied(db, LATEST_ALERTS_MIGRATION)).resolves.toBe(true);
    await expect(isAlertsMigrationApplied(db, 'NotAMigration1700000000000')).resolves.toBe(false);
  });
});
