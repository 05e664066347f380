import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisLease } from './redis-lease';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('RedisLease (Redis)', () => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const key = `test:lease:${randomUUID()}`;

  afterAll(async () => {
    await redis.del(key);
    redis.disconnect();
  });

  beforeEach(async () => {
    await redis.del(key);
  });

  it('lets one owner hold it at a time, renew it, and give it up', async () => {
    const first = new RedisLease(redis, key, 5000);
    const second = new RedisLease(redis, key, 5000);
    expect(await first.tryHold()).toBe(true);
    expect(await second.tryHold()).toBe(false);
    expect(await second.renew()).toBe(false);
    expect(await first.renew()).toBe(true);
    expect(first.isHeld).toBe(true);
    expect(second.isHeld).toBe(false);

    await second.release();
    expect(await redis.get(key)).toBe(first.owner);

    await first.release();
    expect(first.isHeld).toBe(false);
    expect(await second.take()).toBe(true);
  });

  it('passes to another owner when the holder stops renewing', async () => {
    const first = new RedisLease(redis, key, 100);
    const second = new RedisLease(redis, key, 5000);
    expect(await first.take()).toBe(true);
    const deadline = Date.now() + 5000;
    while (!(await second.tryHold()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(second.isHeld).toBe(true);
    expect(await first.renew()).toBe(false);
    expect(first.isHeld).toBe(false);
  });

  it('counts as not held when Redis cannot be reached', async () => {
    // Never connected, and no offline queue: every command fails at once, as during an outage.
    const down = new Redis(REDIS_URL, { lazyConnect: true, enableOfflineQueue: false });
    const lease = new RedisLease(down, key, 5000);
    expect(await lease.tryHold()).toBe(false);
    await expect(lease.release()).resolves.toBeUndefined();
    down.disconnect();
  });
});
