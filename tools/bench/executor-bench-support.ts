/** Shared set-up of the trading-executor benchmarks: a fresh build, database and Redis prefix, and the executor as a child process. */
import { randomBytes } from 'node:crypto';
import { type PriceTick, priceKey, priceTickChannel } from '@paper/contracts';
import { createTestDatabase, migrateDatabase, startStack, type TestDatabase, WORKSPACE_ROOT } from '@paper/dev-stack';
import { Redis } from 'ioredis';
import { buildBenchDist } from './run-bench';
import { residentMemoryMb } from './app-metrics';
import type { MarketName } from '@paper/markets';

export const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export const pct = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

export interface ExecutorBench {
  database: TestDatabase;
  redis: Redis;
  redisPrefix: string;
  executorUrl: string;
  /** Every running executor replica (the first is `executorUrl`). */
  executorUrls: string[];
  /** Starts one more executor replica on the same database and Redis prefix; returns its URL. */
  addReplica(): Promise<string>;
  /** Stops the most recently added replica (it drains like a deploy would stop it). */
  removeReplica(): Promise<void>;
  /** Writes and publishes a price tick like the ingest does (bid = ask = mid). */
  tick(market: MarketName, mid: bigint): Promise<void>;
  /** Samples the executor's resident memory (from its /metrics) and keeps the peak, in MB. */
  sampleRss(): Promise<number>;
  peakRssMb(): number;
  stop(): Promise<void>;
}

/** Builds the apps, creates a database with the exchange schema, and starts trading-executor (no ingest: the bench publishes prices). */
export async function startExecutorBench(
  env: Record<string, string> = {},
  prepare?: (databaseUrl: string) => Promise<void>,
): Promise<ExecutorBench> {
  const distDir = buildBenchDist();
  const database = await createTestDatabase('paper_bench');
  migrateDatabase(database.url, ['exchange']);
  await prepare?.(database.url);
  const redisPrefix = `b${randomBytes(4).toString('hex')}`;
  const redis = new Redis(REDIS_URL);
  const start = () =>
    startStack({
      root: WORKSPACE_ROOT,
      apps: ['trading-executor'],
      databaseUrl: database.url,
      redisUrl: REDIS_URL,
      redisPrefix,
      basePort: 0,
      alertsPort: 0,
      randomAppPorts: true,
      mode: 'dist',
      distDir,
      env: { LOG_LEVEL: 'warn', NODE_ENV: 'test', PRICE_INGEST: 'false', DATABASE_POOL_SIZE: '20', ...env },
    });
  const stacks = [await start()];
  const executorUrl = stacks[0]!.appUrls['trading-executor']!;
  const executorUrls = [executorUrl];
  let peak = 0;
  const bench: ExecutorBench = {
    database,
    redis,
    redisPrefix,
    executorUrl,
    executorUrls,
    addReplica: async () => {
      const stack = await start();
      stacks.push(stack);
      executorUrls.push(stack.appUrls['trading-executor']!);
      return stack.appUrls['trading-executor']!;
    },
    removeReplica: async () => {
      if (stacks.length < 2) throw new Error('only the first executor is running');
      await stacks.pop()!.stop();
      executorUrls.pop();
    },
    tick: async (market, mid) => {
      const tick: PriceTick = { market, bid: mid.toString(), ask: mid.toString(), mid: mid.toString(), ts: Date.now() };
      await redis
        .multi()
        .hset(priceKey(redisPrefix, market), { ...tick, ts: String(tick.ts) })
        .publish(priceTickChannel(redisPrefix), JSON.stringify(tick))
        .exec();
    },
    sampleRss: async () => {
      for (const url of executorUrls) peak = Math.max(peak, await residentMemoryMb(url));
      return peak;
    },
    peakRssMb: () => peak,
    stop: async () => {
      for (const stack of stacks) await stack.stop();
      const keys = await redis.keys(`${redisPrefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
      await database.drop();
    },
  };
  return bench;
}
