import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, REDIS } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { RateLimitError } from './rate-limit.exception';

const WINDOW_MS = 60_000;

/** Counts a request in the current one-minute window of its key; returns the count and the window's remaining ms. */
const COUNT_IN_WINDOW = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/** The unauthenticated writes that are limited per client IP. */
export type RateLimitedAction = 'register' | 'sign-in';

const MESSAGES: Record<RateLimitedAction, string> = {
  register: 'Too many client registrations from this network.',
  'sign-in': 'Too many sign-in requests from this network.',
};

/**
 * Per-client-IP limits of unauthenticated writes (client registration, wallet sign-in messages): a fixed
 * one-minute window counted in Redis, so every replica shares it. If Redis cannot be reached the request
 * is let through (availability over strictness) and a warning is logged.
 */
@Injectable()
export class RateLimitService {
  private readonly logger = new Logger('RateLimit');

  constructor(
    @Inject(APP_CONFIG) private readonly config: OauthServerConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** Counts one request of this IP; throws RateLimitError (429, Retry-After) past the action's limit. */
  async take(action: RateLimitedAction, ip: string): Promise<void> {
    const limit =
      action === 'register' ? this.config.RATE_LIMIT_REGISTER_PER_MINUTE : this.config.RATE_LIMIT_SIGN_IN_PER_MINUTE;
    let counted: [number, number];
    try {
      const key = `${this.config.REDIS_PREFIX}:oauth:rate:${action}:${ip}`;
      counted = (await this.redis.eval(COUNT_IN_WINDOW, 1, key, WINDOW_MS)) as [number, number];
    } catch (error) {
      this.logger.warn(`rate limit of ${action} not checked: ${(error as Error).message}`);
      return;
    }
    const [count, remainingMs] = counted;
    if (count <= limit) return;
    const seconds = Math.max(1, Math.ceil(remainingMs / 1000));
    throw new RateLimitError(
      `${MESSAGES[action]} At most ${limit} per minute are accepted; try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      seconds,
    );
  }
}
