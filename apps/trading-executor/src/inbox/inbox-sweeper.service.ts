import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import { inboxBacklog } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { intentsQueued, oldestQueuedIntent } from '../metrics/executor-metrics';
import { OwnerActionService } from '../owner-actions/owner-action.service';
import { IntentEngine } from '../intents/intent-engine.service';

/**
 * The sweeper, on every replica: each INTENT_SWEEP_MS it starts intent batches (which claim whatever is
 * queued, whether its queue job exists or not: lost, wiped with Redis, or never added because Redis was
 * down) and runs queued owner actions. It needs only PostgreSQL, and claims are disjoint across replicas,
 * so no election is needed and no replica's death delays it. It also samples the backlog for /metrics.
 */
@Injectable()
export class InboxSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('InboxSweeper');
  private timer?: NodeJS.Timeout;
  private sweeping: Promise<void> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly engine: IntentEngine,
    private readonly ownerActions: OwnerActionService,
    @Inject(APP_CONFIG) private readonly config: Pick<TradingExecutorConfig, 'INTENT_SWEEP_MS'>,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep().finally(() => {
        this.sweeping = null;
      });
    }, this.config.INTENT_SWEEP_MS);
    this.engine.pump();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  async sweep(): Promise<void> {
    this.engine.pump();
    try {
      await this.ownerActions.sweep();
      const rows = await inboxBacklog(this.dataSource);
      for (const r of rows) {
        intentsQueued.set({ table: r.table }, Number(r.n));
        oldestQueuedIntent.set({ table: r.table }, r.oldest_seconds ?? 0);
      }
    } catch (error) {
      this.logger.warn(`sweep failed (retried in ${this.config.INTENT_SWEEP_MS} ms): ${(error as Error).message}`);
    }
  }
}
