import { defineQueue } from '@paper/contracts';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { HealthRegistry } from '../health/health-registry';
import { QueueRegistry } from './queue-registry';
import { staleAfterMs } from './job-schedules';

const contract = defineQueue('schedules-test', { tick: z.object({}).strict() });
const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

async function until(check: () => Promise<boolean>, timeoutMs = 15000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('job schedules against real Redis', () => {
  const settings = { REDIS_URL, REDIS_PREFIX: `t${randomBytes(4).toString('hex')}` };
  let registry: QueueRegistry;
  let health: HealthRegistry;
  let redis: Redis;
  let runs: number[] = [];

  beforeEach(async () => {
    runs = [];
    health = new HealthRegistry();
    registry = new QueueRegistry(settings, health);
    redis = new Redis(REDIS_URL);
    registry.worker(contract, { tick: async () => runs.push(Date.now()) });
    registry.schedule(contract, 'tick', 300);
  });

  afterEach(async () => {
    await registry.beforeApplicationShutdown();
    await registry.onApplicationShutdown();
    const keys = await redis.keys(`${settings.REDIS_PREFIX}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('runs, records each run in Redis and reports ready', async () => {
    await until(async () => runs.length >= 2);
    const recorded = Number(await redis.hget(`${settings.REDIS_PREFIX}:schedules:last-run`, 'schedules-test/tick'));
    expect(recorded).toBeGreaterThan(Date.now() - 5000);
    await expect(health.readiness()).resolves.toMatchObject({ status: 'ok', checks: { schedules: 'up' } });
  });

  it('creates a scheduler again after Redis lost every key', async () => {
    await until(async () => runs.length >= 1);
    const keys = await redis.keys(`${settings.REDIS_PREFIX}:*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);
    const lostAt = Date.now();
    // Readiness checks the schedulers (as does a timer and every reconnection): the lost one comes back.
    await health.readiness();
    await until(async () => runs.some((t) => t > lostAt));
    expect(await registry.queue(contract).getJobScheduler('tick')).toBeDefined();
  });

  it('calls a schedule stale after a few intervals, not before', () => {
    expect(staleAfterMs(5000)).toBe(65_000);
    expect(staleAfterMs(60_000)).toBe(180_000);
  });
});
