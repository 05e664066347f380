import { randomBytes } from 'node:crypto';
import { ToolErrorCode } from '@paper/contracts';
import { testRedisUrl } from '@paper/dev-stack';
import { Redis } from 'ioredis';
import { ToolError } from '../errors/tool.error';
import type { ToolsRuntimeOptions } from '../runtime-options';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter (Redis token bucket with leases)', () => {
  const options = { redisPrefix: `rl${randomBytes(4).toString('hex')}` } as ToolsRuntimeOptions;
  const clients: Redis[] = [];
  const limiter = () => {
    const redis = new Redis(testRedisUrl());
    clients.push(redis);
    return new RateLimiter(redis, options);
  };

  afterAll(async () => {
    const cleanup = new Redis(testRedisUrl());
    const keys = await cleanup.keys(`${options.redisPrefix}:*`);
    if (keys.length > 0) await cleanup.del(...keys);
    cleanup.disconnect();
    for (const c of clients) c.disconnect();
  });

  async function outcomes(takes: Promise<void>[]): Promise<{ allowed: number; refused: ToolError[] }> {
    const settled = await Promise.allSettled(takes);
    const refused = settled
      .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
      .map((s) => s.reason as ToolError);
    return { allowed: settled.length - refused.length, refused };
  }

  it('allows the burst, then refuses with 429 rate_limited and Retry-After', async () => {
    const rl = limiter();
    const result = await outcomes(Array.from({ length: 9 }, () => rl.take('ip:a', { perSecond: 2, burst: 6 })));
    expect(result.allowed).toBe(6);
    expect(result.refused).toHaveLength(3);
    expect(result.refused[0]).toBeInstanceOf(ToolError);
    expect(result.refused[0]!.code).toBe(ToolErrorCode.RateLimited);
    expect(result.refused[0]!.status).toBe(429);
    expect(result.refused[0]!.headers['Retry-After']).toBe('1');
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
    const state = await clients[0]!.hgetall(`${options.redisPrefix}:ratelimit:ip:c`);
    expect(Number(state['t'])).toBeLessThan(2);
  });

  it('lets calls through when Redis cannot be reached', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    clients.push(down);
    await expect(new RateLimiter(down, options).take('ip:d', { perSecond: 1, burst: 1 })).resolves.toBeUndefined();
  });
});
