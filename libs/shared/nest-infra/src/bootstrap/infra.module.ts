import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/app-config';
import { type DatabaseOptions, DatabaseModule } from '../database/database.module';
import { HealthModule } from '../health/health.module';
import { MetricsModule } from '../metrics/metrics.module';
import { RedisModule } from '../redis/redis.module';
import type { RedisSettings } from '../redis/redis';

/** What every schema's DataSource factory takes (createExchangeDataSource, createOauthDataSource, ...). */
export interface DataSourceSettings {
  url: string;
  poolSize?: number;
  /** The name PostgreSQL shows for the connections (pg_stat_activity.application_name). */
  applicationName?: string;
}

/** The database settings of an app's config (databaseEnvShape). */
interface DatabaseConfig {
  DATABASE_URL: string;
  DATABASE_POOL_SIZE: number;
}

export interface InfraOptions<C extends object> {
  config: C;
  /**
   * The DataSource of the schema this app owns or reads, made from the config's DATABASE_URL and
   * DATABASE_POOL_SIZE with `app` as its connections' name; omit for apps without PostgreSQL.
   */
  database?: C extends DatabaseConfig
    ? { create: (settings: DataSourceSettings) => DataSource; app: string; options?: DatabaseOptions }
    : never;
  /** Redis settings; omit for apps without Redis. */
  redis?: RedisSettings;
}

/** Config, health, metrics and the app's connections, in one import for every app module. */
@Global()
@Module({})
export class InfraModule {
  static forRoot<C extends object>(options: InfraOptions<C>): DynamicModule {
    const imports: DynamicModule['imports'] = [HealthModule, MetricsModule];
    const database = options.database;
    if (database) {
      const config = options.config as C & DatabaseConfig;
      const create = () =>
        database.create({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          applicationName: database.app,
        });
      imports.push(DatabaseModule.forRoot(create, database.options));
    }
    if (options.redis) imports.push(RedisModule.forRoot(options.redis));
    return {
      module: InfraModule,
      imports,
      providers: [{ provide: APP_CONFIG, useValue: options.config }],
      exports: [APP_CONFIG],
    };
  }
}
