import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { TokenBuckets } from './token-buckets';

describe('TokenBuckets against real Redis', () => {
  const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const buckets = new TokenBuckets(redis, prefix);

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('spaces requests evenly: 5 per 2 seconds means one slot every 420 ms (5% margin)', async () => {
    const spec = [{ key: 'discord:1', tokens: 5, perMs: 2000 }];
    expect(TokenBuckets.intervalMs(spec[0]!)).toBe(420);
    expect(await buckets.take(spec)).toBe(0);
    const wait = await buckets.take(spec);
    expect(wait).toBeGreaterThan(380);
    expect(wait).toBeLessThanOrEqual(420);
  });

  it('books every bucket or none', async () => {
    const chat = { key: 'telegram:chat:1', tokens: 1, perMs: 60_000 };
    const global = { key: 'telegram:global', tokens: 1, perMs: 100 };
    expect(await buckets.take([chat, global])).toBe(0);
    expect(await buckets.take([chat, global])).toBeGreaterThan(50_000);
    const other = { key: 'telegram:chat:2', tokens: 1, perMs: 60_000 };
    const globalWait = await buckets.take([other, global]);
    expect(globalWait).toBeGreaterThan(0);
    expect(globalWait).toBeLessThanOrEqual(105);
    expect(await redis.get(`${prefix}:alerts:bucket:telegram:chat:2`)).toBeNull();
  });

  it('frees the slot after the interval', async () => {
    const spec = [{ key: 'webhook:x', tokens: 1, perMs: 200 }];
    expect(await buckets.take(spec)).toBe(0);
    const wait = await buckets.take(spec);
    expect(wait).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, wait + 20));
    expect(await buckets.take(spec)).toBe(0);
  });
});
