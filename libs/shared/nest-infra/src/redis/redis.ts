import { Logger } from '@nestjs/common';
import type { ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';

export interface RedisSettings {
  REDIS_URL: string;
  REDIS_PREFIX: string;
  /** Bound (ms) on one command of a request-path client, time spent waiting for a reconnection included. */
  REDIS_COMMAND_TIMEOUT_MS?: number;
}

/** Default of REDIS_COMMAND_TIMEOUT_MS: an answer while Redis is down comes well within 2 s. */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 2000;
const reconnectDelay = (attempt: number): number => Math.min(attempt * 200, 2000);

/** Logs a connection's errors at most once per 5 s each: an outage raises one per reconnection attempt. */
export function connectionErrorLogger(what: string, logger = new Logger('Redis')): (error: Error) => void {
  let last = 0;
  return (error) => {
    if (Date.now() - last < 5000) return;
    last = Date.now();
    logger.warn(`${what}: ${error.message}`);
  };
}

/**
 * A plain ioredis client (caches, buckets, leases, pub/sub) for request paths: it reconnects forever, and
 * while Redis is unreachable every command fails at once, or within REDIS_COMMAND_TIMEOUT_MS when it was
 * already sent (the caller answers 503 or retries), instead of waiting for the reconnection. A
 * `duplicate()` made later copies these options: a subscriber passes SUBSCRIBER_OPTIONS (its commands wait
 * for the reconnection).
 */
export function createRedis(settings: RedisSettings, extra: RedisOptions = {}): Redis {
  const redis = new Redis(settings.REDIS_URL, {
    lazyConnect: false,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: reconnectDelay,
    ...extra,
  });
  redis.on('error', connectionErrorLogger('Redis connection'));
  // Commands wait for the first connection (start-up, however slow); once connected, a command issued
  // while the connection is down fails at once instead of queueing for the reconnection, and one already
  // sent fails after the command timeout. (ioredis reads both options when a command is sent.)
  redis.once('ready', () => {
    redis.options.enableOfflineQueue = extra.enableOfflineQueue ?? false;
    redis.options.commandTimeout =
      extra.commandTimeout ?? settings.REDIS_COMMAND_TIMEOUT_MS ?? REDIS_COMMAND_TIMEOUT_MS;
  });
  return redis;
}

/** The options a subscriber overrides (also for `duplicate()` of a request-path client). */
export const SUBSCRIBER_OPTIONS: RedisOptions = Object.freeze({
  enableOfflineQueue: true,
  commandTimeout: undefined,
  maxRetriesPerRequest: null,
});

/**
 * A pub/sub subscriber: unlike a request-path client, its commands (SUBSCRIBE, and the re-subscription
 * ioredis sends after a reconnection) wait for the connection instead of failing at once.
 */
export function createRedisSubscriber(settings: RedisSettings): Redis {
  return createRedis(settings, SUBSCRIBER_OPTIONS);
}

/** Connection options parsed from a redis:// or rediss:// URL. */
export function redisOptionsFromUrl(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: Number.isFinite(db) ? db : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
  };
}

/**
 * Connection options for BullMQ workers and queue-event listeners. BullMQ creates and owns (and closes)
 * the connection; blocking commands need maxRetriesPerRequest null, and these connections wait out an
 * outage patiently (they reconnect forever).
 */
export function bullConnection(settings: RedisSettings): { connection: ConnectionOptions; prefix: string } {
  return {
    connection: {
      ...redisOptionsFromUrl(settings.REDIS_URL),
      maxRetriesPerRequest: null,
      enableReadyCheck: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: reconnectDelay,
    } as ConnectionOptions,
    prefix: `${settings.REDIS_PREFIX}:bull`,
  };
}

/**
 * Connection options for BullMQ queues that add jobs (often on a request path): BullMQ waits for the
 * first connection; after that a command fails at once while Redis is unreachable (and one in flight
 * when the connection drops fails after one reconnection attempt) instead of waiting until Redis is
 * back, so the caller can answer 503 or retry later.
 */
export function bullProducerConnection(settings: RedisSettings): { connection: ConnectionOptions; prefix: string } {
  const { connection, prefix } = bullConnection(settings);
  return {
    connection: {
      ...(connection as RedisOptions),
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    } as ConnectionOptions,
    prefix,
  };
}
