import { createTestDatabase } from '@paper/dev-stack';
import type { DataSource } from 'typeorm';
import { createOauthDataSource } from '../oauth-data-source';

export interface OauthQueryDatabase {
  dataSource: DataSource;
  drop(): Promise<void>;
}

/** A fresh database with the oauth schema migrated, for the query modules' integration tests; drop() removes it. */
export async function createOauthQueryDatabase(prefix: string): Promise<OauthQueryDatabase> {
  const database = await createTestDatabase(prefix);
  const dataSource = await createOauthDataSource({ url: database.url, poolSize: 2 }).initialize();
  await dataSource.query('CREATE SCHEMA IF NOT EXISTS oauth');
  await dataSource.runMigrations({ transaction: 'each' });
  return {
    dataSource,
    drop: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
