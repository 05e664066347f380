import { Inject, Injectable } from '@nestjs/common';
import { ALERTS_LIMITS } from '@paper/alerts-delivery';
import { AlertsErrorCode } from '@paper/contracts';
import { APP_CONFIG, REDIS } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { AlertsException } from '@paper/alerts-accounts';
import type { AlertsApiConfig } from '../config/alerts-api.config';

const TEST_MESSAGES_PER_MINUTE = ALERTS_LIMITS.testMessagesPerMinute;
const WINDOW_MS = 60_000;

/** Sliding one-minute window in a sorted set: returns {allowed, waitMs}. Atomic. */
const SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {1, 0}
`;

/** At most 5 test messages per channel in any 60 s; past that 429 `rate_limited` with Retry-After. */
@Injectable()
export class TestMessageLimiter {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
  ) {}

  async take(channelId: string): Promise<void> {
    const key = `${this.config.REDIS_PREFIX}:alerts:test-messages:${channelId}`;
    const [allowed, waitMs] = (await this.redis.eval(
      SCRIPT,
      1,
      key,
      Date.now(),
      WINDOW_MS,
      TEST_MESSAGES_PER_MINUTE,
      randomUUID(),
    )) as [number, number];
    if (allowed !== 1) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new AlertsException(
        AlertsErrorCode.RateLimited,
        `A channel can receive at most ${TEST_MESSAGES_PER_MINUTE} test messages per minute. Retry in ${seconds} s.`,
        {
          'Retry-After': String(seconds),
        },
      );
    }
  }
}
