import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';

export interface BucketSpec {
  key: string;
  /** At most `tokens` requests in any `perMs` window. */
  tokens: number;
  perMs: number;
}

/** Spacing slack for clock and network jitter between this service and the receiver's own counting. */
const MARGIN = 1.05;

/**
 * Spaces requests evenly (a token bucket of one token refilled every interval, kept as the next
 * allowed time per key): returns 0 and books the slot when every key is free now, else the
 * milliseconds until all are, booking nothing. Even spacing keeps any window of `perMs` under
 * `tokens` requests. Time comes from the Redis server, so every dispatcher replica shares one clock.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait = 0
for i = 1, #KEYS do
  local nextAt = tonumber(redis.call('GET', KEYS[i]) or '0')
  if nextAt - now > wait then wait = nextAt - now end
end
if wait > 0 then return wait end
for i = 1, #KEYS do
  local interval = tonumber(ARGV[i])
  redis.call('SET', KEYS[i], tostring(now + interval), 'PX', interval + 1000)
end
return 0
`;

/** Pushes the next allowed time of every key to at least now + ARGV[1] ms (a receiver asked to wait). */
const HOLD = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilAt = now + tonumber(ARGV[1])
for i = 1, #KEYS do
  local nextAt = tonumber(redis.call('GET', KEYS[i]) or '0')
  if untilAt > nextAt then redis.call('SET', KEYS[i], tostring(untilAt), 'PX', tonumber(ARGV[1]) + 1000) end
end
return 0
`;

const SHAS = new Map<string, string>();

/** Per-destination rate limits shared by every replica of every sending service. */
export class TokenBuckets {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  static intervalMs(spec: Pick<BucketSpec, 'tokens' | 'perMs'>): number {
    return Math.ceil((spec.perMs / spec.tokens) * MARGIN);
  }

  /** 0 when a slot was booked on every bucket; otherwise how long to wait (nothing was booked). */
  async take(buckets: readonly BucketSpec[]): Promise<number> {
    if (buckets.length === 0) return 0;
    const keys = buckets.map((b) => this.key(b));
    return Number(
      await this.script(
        TAKE,
        keys,
        buckets.map((b) => String(TokenBuckets.intervalMs(b))),
      ),
    );
  }

  /** Keeps every bucket closed for at least `ms` (a receiver answered 429 with Retry-After). */
  async hold(buckets: readonly BucketSpec[], ms: number): Promise<void> {
    if (buckets.length === 0 || !(ms > 0)) return;
    const keys = buckets.map((b) => this.key(b));
    await this.script(HOLD, keys, [String(Math.ceil(ms))]);
  }

  /** EVALSHA (the script is sent only when Redis does not have it yet, e.g. after a restart). */
  private async script(lua: string, keys: string[], args: string[]): Promise<unknown> {
    const sha = SHAS.get(lua) ?? SHAS.set(lua, createHash('sha1').update(lua).digest('hex')).get(lua)!;
    try {
      return await this.redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      return this.redis.eval(lua, keys.length, ...keys, ...args);
    }
  }

  private key(bucket: BucketSpec): string {
    return `${this.prefix}:alerts:bucket:${bucket.key}`;
  }
}
