import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { TokenBuckets } from '@paper/webhook-delivery';
import { destinationBuckets } from './destination-buckets';

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

  it('holds buckets closed for as long as a receiver asked, never shortening a later slot', async () => {
    const spec = [{ key: 'discord:held', tokens: 5, perMs: 2000 }];
    await buckets.hold(spec, 1500);
    const wait = await buckets.take(spec);
    expect(wait).toBeGreaterThan(1400);
    expect(wait).toBeLessThanOrEqual(1500);
    await buckets.hold(spec, 10);
    expect(await buckets.take(spec)).toBeGreaterThan(1300);
  });

  it('keys buckets by destination without secrets: one per Discord webhook, per chat plus the bot, per webhook URL', () => {
    const rates = {
      ALERTS_WEBHOOK_RATE: { tokens: 10, perMs: 1000 },
      ALERTS_DISCORD_RATE: { tokens: 5, perMs: 2000 },
      ALERTS_TELEGRAM_CHAT_RATE: { tokens: 1, perMs: 1000 },
      ALERTS_TELEGRAM_GLOBAL_RATE: { tokens: 30, perMs: 1000 },
    };
    const discord = destinationBuckets(
      {
        kind: 'discord',
        target:
          'https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOpQrStUvWxYz01',
      },
      rates,
    );
    expect(discord).toEqual([{ key: 'discord:123456789012345678', tokens: 5, perMs: 2000 }]);
    expect(JSON.stringify(discord)).not.toContain('AbCdEf');
    expect(destinationBuckets({ kind: 'telegram', target: '42' }, rates).map((b) => b.key)).toEqual([
      'telegram:chat:42',
      'telegram:global',
    ]);
    const hook = destinationBuckets({ kind: 'webhook', target: 'https://hooks.example.com/in?key=secret' }, rates);
    expect(hook[0]!.key).toMatch(/^webhook:[0-9a-f]{24}$/);
    expect(JSON.stringify(hook)).not.toContain('secret');
  });
});
