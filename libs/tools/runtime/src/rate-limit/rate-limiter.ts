import { Inject, Injectable, Logger } from '@nestjs/common';
import { ToolErrorCode } from '@paper/contracts';
import { TOOLS_REDIS } from '../redis/tools-redis';
import type { Redis } from 'ioredis';
import { ToolError } from '../errors/tool.error';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';

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

export interface RateLimit {
  perSecond: number;
  burst: number;
}

type Scripted = Redis & {
  toolRateLimit(key: string, rate: number, burst: number, now: number, want: number): Promise<[number, number]>;
};

interface Lease {
  tokens: number;
  until: number;
}

/**
 * Per-caller rate limit shared by every replica: a token bucket in Redis. A replica leases a tenth of a
 * second's worth of tokens at a time (at least one) and spends them locally within a second, so a busy
 * caller costs one Redis round trip per lease rather than per request; a slow caller leases one token at
 * a time, exactly like a plain shared bucket. Over the limit: 429 `rate_limited` with Retry-After. If
 * Redis cannot be reached the call is let through (availability over strictness).
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger('RateLimiter');
  private readonly redis: Scripted;
  private readonly leases = new Map<string, Lease>();
  private readonly pending = new Map<string, Promise<{ tokens: number; waitMs: number } | null>>();

  constructor(
    @Inject(TOOLS_REDIS) redis: Redis,
    @Inject(TOOLS_RUNTIME_OPTIONS) private readonly options: ToolsRuntimeOptions,
  ) {
    if (!('toolRateLimit' in redis)) redis.defineCommand('toolRateLimit', { numberOfKeys: 1, lua: TOKEN_BUCKET });
    this.redis = redis as Scripted;
  }

  /**
   * Spends one request of the caller's limit: undefined when a token leased to this replica paid for it
   * (nothing to wait for, no promise made), otherwise `take`'s promise.
   */
  spend(callerId: string, limit: RateLimit): Promise<void> | undefined {
    return this.trySpend(callerId) ? undefined : this.take(callerId, limit);
  }

  /** Spends one request of the caller's limit; rejects with `rate_limited` (Retry-After) over it. */
  async take(callerId: string, limit: RateLimit): Promise<void> {
    if (this.trySpend(callerId)) return;
    for (let running = this.pending.get(callerId); running; running = this.pending.get(callerId)) {
      await running;
      if (this.trySpend(callerId)) return;
    }
    const granted = await this.lease(callerId, limit);
    if (granted === null || granted.tokens >= 1) return;
    const seconds = Math.max(1, Math.ceil(granted.waitMs / 1000));
    throw new ToolError(
      ToolErrorCode.RateLimited,
      `Too many requests: this caller may make ${limit.perSecond} requests a second (bursts up to ${limit.burst}). Retry in ${seconds} second${seconds === 1 ? '' : 's'}, and poll no faster than once per second.`,
      { 'Retry-After': String(seconds) },
    );
  }

  /** Spends a token leased to this replica, synchronously, if there is one (no Redis round trip). */
  trySpend(callerId: string, now = Date.now()): boolean {
    const lease = this.leases.get(callerId);
    if (!lease || lease.tokens < 1 || lease.until <= now) return false;
    lease.tokens -= 1;
    return true;
  }

  /**
   * Leases tokens from the shared bucket (one lease per caller in flight). The caller keeps one; the rest
   * are left for its next requests. Null when Redis cannot be reached.
   */
  private async lease(callerId: string, limit: RateLimit): Promise<{ tokens: number; waitMs: number } | null> {
    const want = Math.max(1, Math.min(limit.burst, Math.floor(limit.perSecond / 10)));
    const request = (async () => {
      try {
        const [tokens, waitMs] = await this.redis.toolRateLimit(
          `${this.options.redisPrefix}:ratelimit:${callerId}`,
          limit.perSecond,
          limit.burst,
          Date.now(),
          want,
        );
        if (tokens > 1) {
          if (this.leases.size >= LOCAL_LIMIT) this.leases.clear();
          this.leases.set(callerId, { tokens: tokens - 1, until: Date.now() + LEASE_MS });
        }
        return { tokens, waitMs };
      } catch (error) {
        this.logger.warn(`rate limit not checked: ${(error as Error).message}`);
        return null;
      } finally {
        this.pending.delete(callerId);
      }
    })();
    this.pending.set(callerId, request);
    return request;
  }
}
