import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/app-config';
import { type DatabaseOptions, DatabaseModule } from '../database/database.module';
import { HealthModule } from '../health/health.module';
import { MetricsModule } from '../metrics/metrics.module';
import { RedisModule } from '../redis/redis.module';
import type { RedisSettings } from '../redis/redis';

export interface InfraOptions<C extends object> {
  config: C;
  /** The DataSource of the schema this app owns or reads; omit for apps without PostgreSQL. */
  database?: () => DataSource;
  /** Readiness options of the database connection (see DatabaseOptions). */
  databaseOptions?: DatabaseOptions;
  /** Redis settings; omit for apps without Redis. */
  redis?: RedisSettings;
}

/** Config, health, metrics and the app's connections, in one import for every app module. */
@Global()
@Module({})
export class InfraModule {
  static forRoot<C extends object>(options: InfraOptions<C>): DynamicModule {
    const imports: DynamicModule['imports'] = [HealthModule, MetricsModule];
    if (options.database) imports.push(DatabaseModule.forRoot(options.database, options.databaseOptions));
    if (options.redis) imports.push(RedisModule.forRoot(options.redis));
    return {
      module: InfraModule,
      imports,
      providers: [{ provide: APP_CONFIG, useValue: options.config }],
      exports: [APP_CONFIG],
    };
  }
}
