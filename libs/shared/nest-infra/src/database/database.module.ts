import {
  type DynamicModule,
  Global,
  Inject,
  Logger,
  Module,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { DataSource, MigrationExecutor } from 'typeorm';
import { HealthRegistry } from '../health/health-registry';
import { guardPostgresDataSource } from './pg-connections';
import { pingDatabase } from './database-probe';

export const DATA_SOURCE_FACTORY = Symbol('DATA_SOURCE_FACTORY');
const DATABASE_OPTIONS = Symbol('DATABASE_OPTIONS');

export interface DatabaseOptions {
  /**
   * Readiness also requires every migration of the DataSource to be applied (default true), so an app
   * rolled out before its migration Job finished stays out of the load balancer instead of failing
   * requests. An app that serves its own "initializing" answers while the schema is missing sets false.
   */
  requireMigrations?: boolean;
}

class DatabaseLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private retry?: NodeJS.Timeout;
  private stopped = false;
  /** Set once every migration is applied; migrations are never un-applied, so it is not checked again. */
  private schemaCurrent = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly health: HealthRegistry,
    @Inject(DATABASE_OPTIONS) private readonly options: DatabaseOptions,
  ) {}

  /** Connection errors are reported at most once per 5 s: a terminated backend raises several at once. */
  private lastReport = 0;

  async onModuleInit(): Promise<void> {
    guardPostgresDataSource(this.dataSource, (error) => {
      if (Date.now() - this.lastReport < 5000) return;
      this.lastReport = Date.now();
      this.logger.warn(
        `PostgreSQL connection lost (${(error as { code?: string }).code ?? 'no code'}): ${error.message}; it is ` +
          `replaced on next use`,
      );
    });
    this.health.register('database', async () => {
      if (!this.dataSource.isInitialized) throw new Error('not connected');
      await pingDatabase(this.dataSource);
      if (this.options.requireMigrations !== false && !this.schemaCurrent) await this.checkSchema();
    });
    await this.connect(0);
  }

  private async checkSchema(): Promise<void> {
    const pending = await new MigrationExecutor(this.dataSource).getPendingMigrations();
    if (pending.length > 0) {
      throw new Error(
        `schema not migrated: ${pending.length} pending migration(s), first ${pending[0]!.name}; run the migrations ` +
          `(npm run db:migrate)`,
      );
    }
    this.schemaCurrent = true;
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
  static forRoot(createDataSource: () => DataSource, options: DatabaseOptions = {}): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DataSource, useFactory: createDataSource },
        { provide: DATABASE_OPTIONS, useValue: options },
        DatabaseLifecycle,
      ],
      exports: [DataSource],
    };
  }
}
