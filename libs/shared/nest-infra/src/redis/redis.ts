import type { ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';

export interface RedisSettings {
  REDIS_URL: string;
  REDIS_PREFIX: string;
}

/** A plain ioredis client (caches, buckets, pub/sub). Reconnects forever; commands fail fast while down. */
export function createRedis(settings: RedisSettings, extra: RedisOptions = {}): Redis {
  return new Redis(settings.REDIS_URL, {
    lazyConnect: false,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    ...extra,
  });
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
 * Connection options for BullMQ queues and workers. BullMQ creates and owns (and closes) the connection;
 * blocking commands need maxRetriesPerRequest null.
 */
export function bullConnection(settings: RedisSettings): { connection: ConnectionOptions; prefix: string } {
  return {
    connection: {
      ...redisOptionsFromUrl(settings.REDIS_URL),
      maxRetriesPerRequest: null,
      enableReadyCheck: true,
      retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
    } as ConnectionOptions,
    prefix: `${settings.REDIS_PREFIX}:bull`,
  };
}
