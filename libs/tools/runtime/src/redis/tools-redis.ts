import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createRedis } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { ToolsRuntimeOptions } from '../runtime-options';

/**
 * The runtime's own Redis client: auto-pipelined, so the per-request rate-limit and cache commands of concurrent calls
 * share writes.
 */
export const TOOLS_REDIS = Symbol('TOOLS_REDIS');

export function createToolsRedis(options: ToolsRuntimeOptions): Redis {
  return createRedis(
    { REDIS_URL: options.redisUrl, REDIS_PREFIX: options.redisPrefix },
    { enableAutoPipelining: true },
  );
}

@Injectable()
export class ToolsRedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(TOOLS_REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
