/**
 * Readiness follows the app's connections and its schema: an app started before its migrations ran stays
 * out of rotation (503 naming the pending migrations) and turns ready once they are applied, without a
 * restart, as a Deployment rolled out beside its migration Job does.
 */
import {
  createTestDatabase,
  freePort,
  migrateDatabase,
  SERVICE_NODE_OPTIONS,
  testDistDir,
  type TestDatabase,
  testRedisUrl,
} from '@paper/dev-stack';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

interface Readiness {
  status: string;
  checks: Record<string, string>;
  reasons?: Record<string, string>;
}

async function readiness(url: string): Promise<{ code: number; body: Readiness } | undefined> {
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) });
    return { code: res.status, body: (await res.json()) as Readiness };
  } catch {
    return undefined;
  }
}

/** Polls /readyz until `accept` holds for an answer; returns that answer. */
async function waitFor(
  url: string,
  accept: (code: number, body: Readiness) => boolean,
  timeoutMs = 30000,
): Promise<{ code: number; body: Readiness }> {
  const deadline = Date.now() + timeoutMs;
  let last: { code: number; body: Readiness } | undefined;
  while (Date.now() < deadline) {
    last = await readiness(url);
    if (last && accept(last.code, last.body)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`readiness never matched; last answer ${JSON.stringify(last)}`);
}

describe('readiness and the schema', () => {
  let database: TestDatabase;
  let child: ChildProcess | undefined;
  let url: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(
      process.execPath,
      [...SERVICE_NODE_OPTIONS, path.join(testDistDir(), 'apps', 'tools-gateway', 'src', 'main.js')],
      {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          PORT: String(port),
          DATABASE_URL: database.url,
          REDIS_URL: testRedisUrl(),
          REDIS_PREFIX: `ready${port}`,
        },
        stdio: 'ignore',
      },
    );
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
  });

  it('is alive but not ready while its migrations are pending, and says why', async () => {
    const answer = await waitFor(url, (code) => code === 503);
    expect(answer.body.status).toBe('not_ready');
    expect(answer.body.checks).toMatchObject({ database: 'down', redis: 'up' });
    expect(answer.body.reasons?.['database']).toMatch(/pending migration/);
    expect((await fetch(`${url}/livez`)).status).toBe(200);
  });

  it('turns ready once the migrations are applied, without a restart', async () => {
    migrateDatabase(database.url);
    const answer = await waitFor(url, (code) => code === 200);
    expect(answer.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
    expect(child?.exitCode).toBeNull();
  });
});
