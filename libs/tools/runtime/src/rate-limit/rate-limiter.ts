import { Inject, Injectable } from '@nestjs/common';
import { ToolErrorCode } from '@paper/contracts';
import { type RateLimit, type RateLimited, RedisRateLimiter, retryAfterText } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import { ToolError } from '../errors/tool.error';
import { TOOLS_REDIS } from '../redis/tools-redis';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';

export type { RateLimit } from '@paper/nest-infra';

function refusal(limited: RateLimited): ToolError {
  const { perSecond, burst } = limited.limit;
  return new ToolError(
    ToolErrorCode.RateLimited,
    `Too many requests: this caller may make ${perSecond} requests a second (bursts up to ${burst}). Retry in ` +
      `${retryAfterText(limited)}, and poll no faster than once per second.`,
    { 'Retry-After': String(limited.retryAfterSeconds) },
  );
}

/**
 * The tool API's per-caller limit: the shared Redis token bucket (with its local leases, so a busy
 * caller's hot path is usually synchronous) answering over the limit with 429 `rate_limited` and
 * Retry-After in the tool envelope.
 */
@Injectable()
export class RateLimiter {
  private readonly limiter: RedisRateLimiter;

  constructor(@Inject(TOOLS_REDIS) redis: Redis, @Inject(TOOLS_RUNTIME_OPTIONS) options: ToolsRuntimeOptions) {
    this.limiter = new RedisRateLimiter(redis, `${options.redisPrefix}:ratelimit`);
  }

  /**
   * Spends one request of the caller's limit: undefined when a token leased to this replica paid for it
   * (nothing to wait for, no promise made), otherwise `take`'s promise.
   */
  spend(callerId: string, limit: RateLimit): Promise<void> | undefined {
    return this.limiter.trySpend(callerId) ? undefined : this.take(callerId, limit);
  }

  /** Spends one request of the caller's limit; rejects with `rate_limited` (Retry-After) over it. */
  async take(callerId: string, limit: RateLimit): Promise<void> {
    const limited = await this.limiter.take(callerId, limit);
    if (limited) throw refusal(limited);
  }

  /** Spends a token leased to this replica, synchronously, if there is one (no Redis round trip). */
  trySpend(callerId: string): boolean {
    return this.limiter.trySpend(callerId);
  }
}
