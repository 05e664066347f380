import { ToolErrorCode } from '@paper/contracts';
import { testRedisUrl } from '@paper/dev-stack';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { ToolError } from '../errors/tool.error';
import type { ToolsRuntimeOptions } from '../runtime-options';
import { RateLimiter } from './rate-limiter';

describe("the tool API's rate limit (the shared limiter, answered in the tool envelope)", () => {
  const options = { redisPrefix: `rl${randomBytes(4).toString('hex')}` } as ToolsRuntimeOptions;
  const redis = new Redis(testRedisUrl());

  afterAll(async () => {
    const keys = await redis.keys(`${options.redisPrefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('allows the burst, then rejects with 429 rate_limited, Retry-After and the limit in the message', async () => {
    const limiter = new RateLimiter(redis, options);
    const limit = { perSecond: 2, burst: 3 };
    for (let i = 0; i < 3; i += 1) await expect(limiter.take('ip:a', limit)).resolves.toBeUndefined();
    const refused = (await limiter.take('ip:a', limit).catch((error: unknown) => error)) as ToolError;
    expect(refused).toBeInstanceOf(ToolError);
    expect(refused).toMatchObject({ code: ToolErrorCode.RateLimited, status: 429 });
    expect(refused.headers['Retry-After']).toBe('1');
    expect(refused.message).toMatch(/may make 2 requests a second \(bursts up to 3\)\. Retry in 1 second,/);
    // The bucket lives under the runtime's prefix, where every replica finds it.
    expect(await redis.exists(`${options.redisPrefix}:ratelimit:ip:a`)).toBe(1);
  });

  it('spends leased tokens synchronously on the hot path', async () => {
    const limiter = new RateLimiter(redis, options);
    const limit = { perSecond: 100, burst: 100 };
    await limiter.take('ip:b', limit);
    expect(limiter.trySpend('ip:b')).toBe(true);
    expect(limiter.spend('ip:b', limit)).toBeUndefined();
  });
});
