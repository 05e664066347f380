import {
  type DynamicModule,
  Global,
  Inject,
  Module,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { Redis } from 'ioredis';
import { HealthRegistry } from '../health/health-registry';
import { createRedis, type RedisSettings } from './redis';

export const REDIS = Symbol('REDIS');

class RedisLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly health: HealthRegistry,
  ) {}

  onModuleInit(): void {
    this.health.register('redis', async () => {
      await this.redis.ping();
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Provides the app's Redis client under the REDIS token and a readiness check for it. */
@Global()
@Module({})
export class RedisModule {
  static forRoot(settings: RedisSettings): DynamicModule {
    return {
      module: RedisModule,
      providers: [{ provide: REDIS, useFactory: () => createRedis(settings) }, RedisLifecycle],
      exports: [REDIS],
    };
  }
}
