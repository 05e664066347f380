import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';

/** A token bucket per caller: `rate` tokens a second, holding at most `burst`; takes up to ARGV[4] at once. */
const TOKEN_BUCKET = `
local data = redis.call('HMGET', KEYS[1], 't', 'ts')
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local want = tonumber(ARGV[4])
local tokens = tonumber(data[1]) or burst
local ts = tonumber(data[2]) or now
if now > ts then tokens = math.min(burst, tokens + (now - ts) * rate / 1000) end
local granted = math.min(want, math.floor(tokens))
local wait = 0
if granted >= 1 then
  tokens = tokens - granted
else
  granted = 0
  wait = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'ts', tostring(math.max(now, ts)))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return {granted, wait}
`;

/** Tokens leased to this replica are used within this long or dropped. */
const LEASE_MS = 1000;
const LOCAL_LIMIT = 50_000;

/**
 * A caller's allowance: `perSecond` requests a second on average (fractions allowed: 5 a minute is 5/60), bursts up to
 * `burst`.
 */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/** The limiter's answer over the limit: the caller may retry in `retryAfterSeconds` (whole seconds, at least 1). */
export interface RateLimited {
  retryAfterSeconds: number;
  limit: RateLimit;
}

/** A limit of `count` requests a minute, all of which may come at once (the bucket refills at count/60 a second). */
export function perMinute(count: number): RateLimit {
  return { perSecond: count / 60, burst: count };
}

type Scripted = Redis & {
  tokenBucketTake(key: string, rate: number, burst: number, now: number, want: number): Promise<[number, number]>;
};

interface Lease {
  tokens: number;
  until: number;
}

/**
 * The one per-caller rate limiter of every service, shared by all replicas: a token bucket per key in
 * Redis. A replica leases a tenth of a second's worth of tokens at a time (at least one) and spends them
 * locally within a second, so a busy caller costs one Redis round trip per lease rather than per request;
 * a slow caller leases one token at a time, exactly like a plain shared bucket. It only reports: under the
 * limit `undefined`, over it `RateLimited` (retry in N s), and each service answers 429 with Retry-After
 * in its own error shape. If Redis cannot be reached the call is let through (availability over strictness).
 */
export class RedisRateLimiter {
  private readonly logger = new Logger('RateLimiter');
  private readonly redis: Scripted;
  private readonly leases = new Map<string, Lease>();
  private readonly pending = new Map<string, Promise<{ tokens: number; waitMs: number } | null>>();

  /**
   * `keyPrefix` scopes the buckets in Redis (e.g. `<REDIS_PREFIX>:ratelimit`); keys name the caller and what it does.
   */
  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
  ) {
    if (!('tokenBucketTake' in redis)) redis.defineCommand('tokenBucketTake', { numberOfKeys: 1, lua: TOKEN_BUCKET });
    this.redis = redis as Scripted;
  }

  /**
   * Spends one request of the key's limit: undefined when a token leased to this replica paid for it
   * (nothing to wait for, no promise made), otherwise `take`'s promise.
   */
  spend(key: string, limit: RateLimit): Promise<RateLimited | undefined> | undefined {
    return this.trySpend(key) ? undefined : this.take(key, limit);
  }

  /** Spends one request of the key's limit: undefined when allowed, `RateLimited` (retry in N s) over it. */
  async take(key: string, limit: RateLimit): Promise<RateLimited | undefined> {
    if (this.trySpend(key)) return undefined;
    for (let running = this.pending.get(key); running; running = this.pending.get(key)) {
      await running;
      if (this.trySpend(key)) return undefined;
    }
    const granted = await this.lease(key, limit);
    if (granted === null || granted.tokens >= 1) return undefined;
    return { retryAfterSeconds: Math.max(1, Math.ceil(granted.waitMs / 1000)), limit };
  }

  /** Spends a token leased to this replica, synchronously, if there is one (no Redis round trip). */
  trySpend(key: string, now = Date.now()): boolean {
    const lease = this.leases.get(key);
    if (!lease || lease.tokens < 1 || lease.until <= now) return false;
    lease.tokens -= 1;
    return true;
  }

  /**
   * Leases tokens from the shared bucket (one lease per key in flight). The caller keeps one; the rest
   * are left for its next requests. Null when Redis cannot be reached.
   */
  private async lease(key: string, limit: RateLimit): Promise<{ tokens: number; waitMs: number } | null> {
    const want = Math.max(1, Math.min(limit.burst, Math.floor(limit.perSecond / 10)));
    const request = (async () => {
      try {
        const [tokens, waitMs] = await this.redis.tokenBucketTake(
          `${this.keyPrefix}:${key}`,
          limit.perSecond,
          limit.burst,
          Date.now(),
          want,
        );
        if (tokens > 1) {
          if (this.leases.size >= LOCAL_LIMIT) this.leases.clear();
          this.leases.set(key, { tokens: tokens - 1, until: Date.now() + LEASE_MS });
        }
        return { tokens, waitMs };
      } catch (error) {
        this.logger.warn(`rate limit not checked: ${(error as Error).message}`);
        return null;
      } finally {
        this.pending.delete(key);
      }
    })();
    this.pending.set(key, request);
    return request;
  }
}

/** "N second(s)", for the messages of 429 answers. */
export function retryAfterText(limited: RateLimited): string {
  const seconds = limited.retryAfterSeconds;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
