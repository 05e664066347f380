import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, REDIS, type RateLimit, RedisRateLimiter, perMinute, retryAfterText } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { RateLimitError } from './rate-limit.exception';

/** What is limited per client IP: every request, and on top of that the unauthenticated writes. */
export type RateLimitedAction = 'request' | 'register' | 'sign-in';

const MESSAGES: Record<RateLimitedAction, string> = {
  request: 'Too many requests from this network.',
  register: 'Too many client registrations from this network.',
  'sign-in': 'Too many sign-in requests from this network.',
};

/**
 * Per-client-IP limits on the shared Redis token bucket, which every replica shares: every request (N a
 * second with a burst), and the unauthenticated writes (client registration, wallet sign-in messages: N a
 * minute, all N at once if need be, then one more each 60/N seconds). If Redis cannot be reached the
 * request is let through.
 */
@Injectable()
export class RateLimitService {
  private readonly limiter: RedisRateLimiter;
  private readonly limits: Record<RateLimitedAction, RateLimit>;

  constructor(@Inject(APP_CONFIG) config: OauthServerConfig, @Inject(REDIS) redis: Redis) {
    this.limiter = new RedisRateLimiter(redis, `${config.REDIS_PREFIX}:oauth:rate`);
    this.limits = {
      request: { perSecond: config.RATE_LIMIT_REQUESTS_PER_SECOND, burst: config.RATE_LIMIT_REQUESTS_BURST },
      register: perMinute(config.RATE_LIMIT_REGISTER_PER_MINUTE),
      'sign-in': perMinute(config.RATE_LIMIT_SIGN_IN_PER_MINUTE),
    };
  }

  /** Counts one request of this IP; throws RateLimitError (429, Retry-After) past the action's limit. */
  async take(action: RateLimitedAction, ip: string): Promise<void> {
    const limited = await this.limiter.take(`${action}:${ip}`, this.limits[action]);
    if (!limited) return;
    throw new RateLimitError(
      `${MESSAGES[action]} ${action === 'request' ? `At most ${limited.limit.perSecond} a second (bursts of ${limited.limit.burst})` : `At most ${limited.limit.burst} per minute`} are accepted; try again in ${retryAfterText(limited)}.`,
      limited.retryAfterSeconds,
    );
  }
}
