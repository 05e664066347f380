import { type DynamicModule, Global, Inject, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HealthRegistry } from '../health/health-registry';

export const DATA_SOURCE_FACTORY = Symbol('DATA_SOURCE_FACTORY');

class DatabaseLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly health: HealthRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    this.health.register('database', async () => {
      if (!this.dataSource.isInitialized) throw new Error('not connected');
      await this.dataSource.query('SELECT 1');
    });
    await this.connect(0);
  }

  /** Connects, and keeps retrying in the background while PostgreSQL is unreachable (readiness stays down). */
  private async connect(attempt: number): Promise<void> {
    try {
      await this.dataSource.initialize();
    } catch (error) {
      if (this.stopped) return;
      this.logger.warn(`PostgreSQL not reachable (attempt ${attempt + 1}): ${(error as Error).message}`);
      this.retry = setTimeout(() => void this.connect(attempt + 1), Math.min(500 * 2 ** attempt, 5000));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** Provides the app's TypeORM DataSource (of the schema it owns or reads) and its readiness check. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(createDataSource: () => DataSource): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: DataSource, useFactory: createDataSource }, DatabaseLifecycle],
      exports: [DataSource],
    };
  }
}
