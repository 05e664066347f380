/**
 * Applies the migrations of one or more schemas: `migrate.ts [exchange|oauth|alerts ...]` (default: all).
 * Creates the database named in DATABASE_URL when it does not exist. A separate command, never run at app start.
 */
import { createAlertsDataSource } from '@paper/alerts-data';
import { createExchangeDataSource } from '@paper/exchange-data';
import { createOauthDataSource } from '@paper/oauth-data';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';

const FACTORIES: Record<string, (url: string) => DataSource> = {
  exchange: (url) => createExchangeDataSource({ url, poolSize: 2, applicationName: 'migrate' }),
  oauth: (url) => createOauthDataSource({ url, poolSize: 2, applicationName: 'migrate' }),
  alerts: (url) => createAlertsDataSource({ url, poolSize: 2, applicationName: 'migrate' }),
};

export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  // A dropped connection fails the query in progress (and so the command); the event must not also end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    }
  } finally {
    await client.end();
  }
}

export async function migrate(
  url: string,
  schemas: readonly string[],
  log: (line: string) => void = console.log,
): Promise<void> {
  await ensureDatabase(url);
  for (const schema of schemas) {
    const factory = FACTORIES[schema];
    if (!factory) throw new Error(`Unknown schema "${schema}". Use one of: ${Object.keys(FACTORIES).join(', ')}`);
    const dataSource = factory(url);
    await dataSource.initialize();
    try {
      await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      log(`${schema}: ${applied.length === 0 ? 'up to date' : `applied ${applied.map((m) => m.name).join(', ')}`}`);
    } finally {
      await dataSource.destroy();
    }
  }
}

export const ALL_SCHEMAS = Object.keys(FACTORIES);

if (require.main === module) {
  const schemas = process.argv.slice(2).filter((a) => a !== 'all');
  const url = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/paper';
  migrate(url, schemas.length ? schemas : ALL_SCHEMAS).catch((error: unknown) => {
    console.error(`migration failed: ${(error as Error).message}`);
    process.exit(1);
  });
}
