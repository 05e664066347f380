import {
  type TestStack,
  WORKSPACE_ROOT,
  startTestStack,
  startWebhookReceiver,
  type WebhookReceiver,
} from '@paper/dev-stack';
import { auditLedger } from '@paper/exchange-data';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { type Trader, connectTrader, redisOptions, venueControl, waitForPrices } from '../../tools/tool-test-kit';
import { type TestIssuer, startTestIssuer } from '../../tools/token-issuer';
import { type PgFaultProxy, startPgFaultProxy } from './pg-fault-proxy';
import { type PrivateRedis, startPrivateRedis } from './private-redis';

/** All eight apps, and nothing shared with other tests. */
/** The apps' logs of the last fault run (one file per app), to read when an experiment fails. */
export const FAULT_LOG_DIR = path.join(WORKSPACE_ROOT, 'tmp', 'fault-logs');

export const FAULT_APPS = [
  'venue-sim',
  'oauth-server',
  'trading-executor',
  'tools-gateway',
  'mcp-server',
  'alerts-api',
  'alerts-poller',
  'alerts-dispatcher',
] as const;

/**
 * An isolated world to break: the built apps on their own database (reached through a fault proxy) and
 * their own redis-server, traders connected and funded, a webhook receiver for deliveries, and an
 * admin connection that goes around the proxy.
 */
export interface FaultLab {
  stack: TestStack;
  redis: PrivateRedis;
  proxy: PgFaultProxy;
  issuer: TestIssuer;
  receiver: WebhookReceiver;
  traders: Trader[];
  /** SQL on the isolated database, straight to PostgreSQL (not through the proxy). */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** pg_terminate_backend on every app connection to the isolated database; how many were ended. */
  terminateBackends(): Promise<number>;
  /** The ledger audit of the exchange (empty when the books balance). */
  auditLedger(): Promise<string[]>;
  /** A BullMQ queue of the stack, on its Redis. */
  queue(name: string): Queue;
  /** A plain client of the stack's Redis (keys are under `stack.redisPrefix`). */
  redisClient(): Redis;
  /** True while the app's process (or replica, `<app>#<n>`) runs. */
  alive(app: string): boolean;
  stop(): Promise<void>;
}

export interface FaultLabOptions {
  traders?: number;
  env?: Record<string, string>;
}

export async function startFaultLab(options: FaultLabOptions = {}): Promise<FaultLab> {
  fs.rmSync(FAULT_LOG_DIR, { recursive: true, force: true });
  const [redis, proxy, issuer, receiver] = await Promise.all([
    startPrivateRedis(),
    startPgFaultProxy(),
    startTestIssuer(),
    startWebhookReceiver(),
  ]);
  const queues = new Map<string, Queue>();
  const clients: Redis[] = [];
  let admin: Client | undefined;
  let stack: TestStack | undefined;
  const stop = async (): Promise<void> => {
    await Promise.all([...queues.values()].map((q) => q.close().catch(() => undefined)));
    for (const c of clients) c.disconnect();
    await admin?.end().catch(() => undefined);
    await stack?.stop();
    await Promise.all([proxy.close(), issuer.stop(), receiver.close(), redis.stop()]);
  };
  try {
    stack = await startTestStack({
      apps: [...FAULT_APPS],
      redisUrl: redis.url,
      logDir: FAULT_LOG_DIR,
      appDatabaseUrl: (database) => proxy.via(database.url),
      env: {
        OAUTH_JWKS_URL: issuer.jwksUrl,
        ALERTS_ALLOW_HOSTS: receiver.hostPort,
        ALERTS_POLL_MS: '2000',
        ALERTS_PROTOCOL_POLL_MS: '2000',
        ALERTS_SWEEP_MS: '1000',
        TELEGRAM_UPDATES_MODE: 'off',
        ...options.env,
      },
    });
    const running = stack;
    issuer.bind(running.baseUrl);
    await venueControl(running, 'freeze', { frozen: true });
    await waitForPrices(running.baseUrl);
    admin = new Client({ connectionString: running.database.url, application_name: 'fault-suite' });
    admin.on('error', () => undefined);
    await admin.connect();
    const db = admin;
    const traders: Trader[] = [];
    for (let i = 0; i < (options.traders ?? 8); i += 1)
      traders.push(await connectTrader(running, issuer, { guardrails: { requireConfirmation: false } }));
    return {
      stack: running,
      redis,
      proxy,
      issuer,
      receiver,
      traders,
      sql: async <T>(text: string, params: unknown[] = []) => (await db.query(text, params)).rows as T[],
      terminateBackends: async () => {
        const rows = await db.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name <> 'fault-suite'`,
          [running.database.name],
        );
        return rows.rowCount ?? 0;
      },
      auditLedger: () => auditLedger(db),
      queue: (name) => {
        let q = queues.get(name);
        if (!q) {
          q = new Queue(name, {
            connection: { ...redisOptions(redis.url), maxRetriesPerRequest: null },
            prefix: `${running.redisPrefix}:bull`,
          });
          q.on('error', () => undefined);
          queues.set(name, q);
        }
        return q;
      },
      redisClient: () => {
        const c = new Redis(redis.url, { maxRetriesPerRequest: 1 });
        c.on('error', () => undefined);
        clients.push(c);
        return c;
      },
      alive: (app) => {
        const pid = running.pid(app);
        if (!pid) return false;
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
