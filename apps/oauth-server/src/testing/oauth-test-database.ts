import { createOauthDataSource } from '@paper/oauth-data';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';

export interface OauthTestDatabase {
  dataSource: DataSource;
  url: string;
  drop(): Promise<void>;
}

/** A fresh database with the oauth schema migrated, for integration tests; drop() removes it. */
export async function createOauthTestDatabase(
  adminUrl: string,
  prefix: string,
  poolSize = 4,
): Promise<OauthTestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataSource = await createOauthDataSource({ url: url.toString(), poolSize }).initialize();
  await dataSource.query('CREATE SCHEMA IF NOT EXISTS oauth');
  await dataSource.runMigrations({ transaction: 'each' });
  return {
    dataSource,
    url: url.toString(),
    drop: async () => {
      await dataSource.destroy();
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}
