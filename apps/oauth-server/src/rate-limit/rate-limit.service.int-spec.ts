import { createRedis } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { oauthServerConfigSchema } from '../config/oauth-server.config';
import { RateLimitError } from './rate-limit.exception';
import { RateLimitService } from './rate-limit.service';

describe('per-IP rate limits of requests and unauthenticated writes (Redis)', () => {
  const config = oauthServerConfigSchema.parse({
    REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
    RATE_LIMIT_REGISTER_PER_MINUTE: '3',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '2',
    RATE_LIMIT_REQUESTS_PER_SECOND: '2',
    RATE_LIMIT_REQUESTS_BURST: '4',
  });
  let redisA: Redis;
  let redisB: Redis;
  let replicaA: RateLimitService;
  let replicaB: RateLimitService;

  beforeAll(() => {
    redisA = createRedis(config);
    redisB = createRedis(config);
    replicaA = new RateLimitService(config, redisA);
    replicaB = new RateLimitService(config, redisB);
  });

  afterAll(async () => {
    const keys = await redisA.keys(`${config.REDIS_PREFIX}:*`);
    if (keys.length > 0) await redisA.del(...keys);
    await Promise.all([redisA?.quit(), redisB?.quit()]);
  });

  it('counts one IP across replicas and refuses past the limit with the Retry-After of the next token', async () => {
    await replicaA.take('register', '203.0.113.1');
    await replicaB.take('register', '203.0.113.1');
    await replicaA.take('register', '203.0.113.1');
    const refused = await replicaB.take('register', '203.0.113.1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitError);
    const error = refused as RateLimitError;
    expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
    // 3 a minute: one token every 20 s.
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(19);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(20);
    expect(error.headers['Retry-After']).toBe(String(error.retryAfterSeconds));
    expect(error.message).toMatch(/At most 3 per minute/);
  });

  it('limits every request per IP to its rate with a burst, apart from the write limits', async () => {
    for (let i = 0; i < 4; i += 1) await replicaA.take('request', '203.0.113.9');
    const refused = await replicaB.take('request', '203.0.113.9').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect((refused as RateLimitError).message).toMatch(/At most 2 a second \(bursts of 4\)/);
    expect((refused as RateLimitError).retryAfterSeconds).toBe(1);
    await expect(replicaA.take('register', '203.0.113.9')).resolves.toBeUndefined();
    await expect(replicaA.take('request', '203.0.113.10')).resolves.toBeUndefined();
  });

  it('keeps IPs and actions apart, each with its own limit', async () => {
    await replicaA.take('register', '203.0.113.2');
    await replicaA.take('sign-in', '203.0.113.1');
    await replicaA.take('sign-in', '203.0.113.1');
    await expect(replicaA.take('sign-in', '203.0.113.1')).rejects.toBeInstanceOf(RateLimitError);
    await expect(replicaA.take('sign-in', '203.0.113.3')).resolves.toBeUndefined();
  });

  it('accepts a request again once a token has refilled', async () => {
    const key = `${config.REDIS_PREFIX}:oauth:rate:sign-in:203.0.113.4`;
    await replicaA.take('sign-in', '203.0.113.4');
    await replicaA.take('sign-in', '203.0.113.4');
    await expect(replicaA.take('sign-in', '203.0.113.4')).rejects.toBeInstanceOf(RateLimitError);
    // The bucket as it will be 30 s later (2 a minute: one token refilled).
    const ts = Number(await redisA.hget(key, 'ts'));
    await redisA.hset(key, 'ts', String(ts - 30_000));
    await expect(replicaA.take('sign-in', '203.0.113.4')).resolves.toBeUndefined();
    await expect(replicaA.take('sign-in', '203.0.113.4')).rejects.toBeInstanceOf(RateLimitError);
  });
});
