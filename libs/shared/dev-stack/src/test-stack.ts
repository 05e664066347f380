import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { Client } from 'pg';
import { type RunningStack, startStack } from './stack';

export const WORKSPACE_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

const PG_ADMIN_URL = process.env['TEST_DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** The browser the end-to-end tests drive (CHROMIUM_PATH, default the distribution's Chromium). */
export const TEST_CHROMIUM_PATH = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';

/** The Redis server the tests use (TEST_REDIS_URL, default local). */
export function testRedisUrl(): string {
  return REDIS_URL;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, uniquely named database on the test server; dropped (forcefully) by drop(). */
export async function createTestDatabase(prefix = 'paper_test'): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const client = new Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A fresh database with the migrations of `schemas` applied and a data source opened on it, as the
 * integration kits start theirs.
 */
export async function createMigratedDatabase<D extends { initialize(): Promise<unknown> }>(
  prefix: string,
  schemas: readonly string[],
  open: (url: string) => D,
): Promise<{ database: TestDatabase; db: D }> {
  const database = await createTestDatabase(prefix);
  migrateDatabase(database.url, schemas);
  const db = open(database.url);
  await db.initialize();
  return { database, db };
}

/** Deletes a test's Redis keys (those under its prefix) and closes the client. */
export async function clearRedisPrefix(redis: Pick<Redis, 'keys' | 'del' | 'quit'>, prefix: string): Promise<void> {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}

/** The build the tests run: the per-run build of the jest global setup, else dist/stack. */
export function testDistDir(): string {
  return process.env['STACK_DIST_DIR'] ?? path.join(WORKSPACE_ROOT, 'dist', 'stack');
}

/** Applies migrations the way operators do: the built migration command in a child process. */
export function migrateDatabase(url: string, schemas: readonly string[] = []): string {
  return execFileSync(process.execPath, [path.join(testDistDir(), 'tools', 'db', 'migrate.js'), ...schemas], {
    env: { ...process.env, DATABASE_URL: url },
    encoding: 'utf8',
  });
}

export interface TestStack extends RunningStack {
  database: TestDatabase;
  redisPrefix: string;
  /** The Redis server the apps use. */
  redisUrl: string;
}

export interface TestStackOptions {
  apps?: readonly string[];
  env?: Record<string, string>;
  /** Apply migrations before starting (default true). */
  migrate?: boolean;
  /** The Redis server the apps use (default TEST_REDIS_URL, the shared test server). */
  redisUrl?: string;
  /** Directory for one log file per app (default: the last lines are kept in memory). */
  logDir?: string;
  /** The URL the apps reach the test database at (default its own URL), for a proxy in front of it. */
  appDatabaseUrl?: (database: TestDatabase) => string;
}

/**
 * Starts the built apps against a fresh database and a unique Redis prefix, on free ports, behind the
 * same edge routing as `npm start`. stop() stops everything and drops the database.
 */
export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const database = await createTestDatabase();
  const redisPrefix = `t${randomBytes(4).toString('hex')}`;
  try {
    if (options.migrate !== false) migrateDatabase(database.url);
    const stack = await startStack({
      root: WORKSPACE_ROOT,
      apps: options.apps,
      databaseUrl: options.appDatabaseUrl?.(database) ?? database.url,
      redisUrl: options.redisUrl ?? REDIS_URL,
      redisPrefix,
      basePort: 0,
      alertsPort: 0,
      randomAppPorts: true,
      mode: 'dist',
      distDir: testDistDir(),
      logDir: options.logDir,
      env: { LOG_LEVEL: 'warn', NODE_ENV: 'test', ...options.env },
    });
    return {
      ...stack,
      database,
      redisPrefix,
      redisUrl: options.redisUrl ?? REDIS_URL,
      stop: async () => {
        await stack.stop();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
