import type { Redis } from 'ioredis';

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

/** Per-destination rate limits shared by every dispatcher replica. */
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
    const keys = buckets.map((b) => `${this.prefix}:alerts:bucket:${b.key}`);
    return Number(await this.redis.eval(TAKE, keys.length, ...keys, ...buckets.map((b) => String(TokenBuckets.intervalMs(b)))));
  }
}
