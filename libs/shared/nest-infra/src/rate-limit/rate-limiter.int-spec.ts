import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { type RateLimited, RedisRateLimiter, perMinute } from './rate-limiter';

/** The Redis server the tests use (TEST_REDIS_URL, default local). */
const testRedisUrl = (): string => process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('RedisRateLimiter (Redis token bucket with leases)', () => {
  const prefix = `rl${randomBytes(4).toString('hex')}`;
  const clients: Redis[] = [];
  const limiter = () => {
    const redis = new Redis(testRedisUrl());
    clients.push(redis);
    return new RedisRateLimiter(redis, `${prefix}:ratelimit`);
  };

  afterAll(async () => {
    const cleanup = new Redis(testRedisUrl());
    const keys = await cleanup.keys(`${prefix}:*`);
    if (keys.length > 0) await cleanup.del(...keys);
    await Promise.all([cleanup, ...clients].map((c) => c.quit().catch(() => c.disconnect())));
  });

  async function outcomes(
    takes: Promise<RateLimited | undefined>[],
  ): Promise<{ allowed: number; refused: RateLimited[] }> {
    const refused = (await Promise.all(takes)).filter((r): r is RateLimited => r !== undefined);
    return { allowed: takes.length - refused.length, refused };
  }

  it('allows the burst, then reports "limited, retry in N s"', async () => {
    const rl = limiter();
    const limit = { perSecond: 2, burst: 6 };
    const result = await outcomes(Array.from({ length: 9 }, () => rl.take('ip:a', limit)));
    expect(result.allowed).toBe(6);
    expect(result.refused).toHaveLength(3);
    expect(result.refused[0]).toEqual({ retryAfterSeconds: 1, limit });
  });

  it('shares one bucket between replicas and keeps callers apart', async () => {
    const [a, b] = [limiter(), limiter()];
    const limit = { perSecond: 1, burst: 4 };
    const started = performance.now();
    const result = await outcomes([
      ...Array.from({ length: 3 }, () => a.take('ip:b', limit)),
      ...Array.from({ length: 3 }, () => b.take('ip:b', limit)),
    ]);
    // One bucket for both: the burst, plus a token for each whole second the calls took on a loaded
    // machine (two buckets would allow all 6 at once).
    const refilled = Math.floor((performance.now() - started) / 1000);
    expect(result.allowed).toBeGreaterThanOrEqual(4);
    expect(result.allowed).toBeLessThanOrEqual(4 + refilled);
    await expect(a.take('ip:other', limit)).resolves.toBeUndefined();
  });

  it('serves a busy caller from a lease without exceeding the shared bucket', async () => {
    const rl = limiter();
    const started = performance.now();
    const result = await outcomes(Array.from({ length: 40 }, () => rl.take('ip:c', { perSecond: 100, burst: 20 })));
    // The bucket refills at 100/s while the calls run: at most the burst, what refilled meanwhile and a lease's slack.
    const refilled = Math.ceil(((performance.now() - started) / 1000) * 100);
    expect(result.allowed).toBeGreaterThanOrEqual(20);
    expect(result.allowed).toBeLessThanOrEqual(22 + refilled);
    const state = await clients[0]!.hgetall(`${prefix}:ratelimit:ip:c`);
    expect(Number(state['t'])).toBeLessThan(2);
  });

  it('spends a leased token synchronously, and goes to Redis once the lease is used up', async () => {
    const rl = limiter();
    const limit = { perSecond: 50, burst: 50 };
    await expect(rl.take('ip:e', limit)).resolves.toBeUndefined();
    // The lease was 5 tokens (a tenth of a second's worth): the caller kept one, 4 are left locally.
    for (let i = 0; i < 4; i += 1) expect(rl.spend('ip:e', limit)).toBeUndefined();
    const next = rl.spend('ip:e', limit);
    expect(next).toBeInstanceOf(Promise);
    await expect(next).resolves.toBeUndefined();
  });

  it('limits per minute: the whole allowance at once, then a retry time of the refill of one token', async () => {
    const rl = limiter();
    const limit = perMinute(3);
    const result = await outcomes(Array.from({ length: 4 }, () => rl.take('ip:f', limit)));
    expect(result.allowed).toBe(3);
    expect(result.refused[0]!.retryAfterSeconds).toBeGreaterThanOrEqual(19);
    expect(result.refused[0]!.retryAfterSeconds).toBeLessThanOrEqual(20);
  });

  it('lets calls through when Redis cannot be reached', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    clients.push(down);
    await expect(new RedisRateLimiter(down, prefix).take('ip:d', { perSecond: 1, burst: 1 })).resolves.toBeUndefined();
  });
});
