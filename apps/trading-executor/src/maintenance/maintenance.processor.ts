import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { EXCHANGE_MAINTENANCE_QUEUE, type JobName } from '@paper/contracts';
import { pruneEvents } from '@paper/exchange-data';
import { APP_CONFIG, QueueRegistry } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { DepositSweepService } from '../deposits/deposit-sweep.service';
import { IntentExpiryService } from '../intents/intent-expiry.service';
import { maintenanceRuns } from '../metrics/executor-metrics';
import { DailyStatsService } from './daily-stats.service';
import { EquitySnapshotService } from './equity-snapshot.service';
import { HarvestService } from './harvest.service';

type MaintenanceJob = JobName<typeof EXCHANGE_MAINTENANCE_QUEUE>;

/**
 * Schedules the repeatable maintenance jobs (BullMQ job schedulers, kept alive by every replica; each run
 * goes to one worker) and runs them: harvest, equity snapshots, daily roll-up, deposit sweep, intent expiry,
 * event-log retention.
 */
@Injectable()
export class MaintenanceProcessor implements OnApplicationBootstrap {
  private readonly logger = new Logger('Maintenance');

  constructor(
    private readonly registry: QueueRegistry,
    @Inject(APP_CONFIG) private readonly config: TradingExecutorConfig,
    private readonly harvest: HarvestService,
    private readonly snapshots: EquitySnapshotService,
    private readonly dailyStats: DailyStatsService,
    private readonly deposits: DepositSweepService,
    private readonly expiry: IntentExpiryService,
    private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    const every: Record<MaintenanceJob, number> = {
      'harvest-payouts': this.config.HARVEST_EVERY_MS,
      'snapshot-equity': this.config.SNAPSHOT_EVERY_MS,
      'rollup-daily-stats': this.config.ROLLUP_EVERY_MS,
      'sweep-deposits': this.config.SWEEP_DEPOSITS_EVERY_MS,
      'expire-intents': this.config.EXPIRE_INTENTS_EVERY_MS,
      'prune-events': this.config.PRUNE_EVENTS_EVERY_MS,
    };
    for (const [name, ms] of Object.entries(every) as [MaintenanceJob, number][])
      this.registry.schedule(EXCHANGE_MAINTENANCE_QUEUE, name, ms);
    this.registry.worker(
      EXCHANGE_MAINTENANCE_QUEUE,
      {
        'harvest-payouts': () => this.run('harvest-payouts'),
        'snapshot-equity': () => this.run('snapshot-equity'),
        'rollup-daily-stats': (data) => this.run('rollup-daily-stats', data),
        'sweep-deposits': () => this.run('sweep-deposits'),
        'expire-intents': () => this.run('expire-intents'),
        'prune-events': () => this.run('prune-events'),
      },
      { concurrency: 2 },
    );
  }

  async run(name: MaintenanceJob, data: { day?: string } = {}): Promise<unknown> {
    try {
      const result = await this.dispatch(name, data);
      maintenanceRuns.inc({ job: name, outcome: 'ok' });
      return result;
    } catch (error) {
      maintenanceRuns.inc({ job: name, outcome: 'error' });
      this.logger.warn(`${name} failed: ${(error as Error).message}`);
      throw error;
    }
  }

  private async dispatch(name: MaintenanceJob, data: { day?: string }): Promise<unknown> {
    switch (name) {
      case 'harvest-payouts': {
        const r = await this.harvest.harvest();
        return {
          paidMicro: r.paidMicro.toString(),
          feesCollectedMicro: r.feesCollectedMicro.toString(),
          entriesPaid: r.entriesPaid,
          queueCleared: r.queueCleared,
          lpSweptMicro: r.lpSweptMicro.toString(),
          sweptToStakersMicro: r.sweptToStakersMicro.toString(),
          feesToStakersMicro: r.feesToStakersMicro.toString(),
        };
      }
      case 'snapshot-equity':
        return { accounts: await this.snapshots.snapshot() };
      case 'rollup-daily-stats':
        return { days: await this.dailyStats.rollup(data.day) };
      case 'sweep-deposits':
        return { deposits: (await this.deposits.sweep()).length };
      case 'expire-intents':
        return { expired: await this.expiry.expireQueued() };
      case 'prune-events':
        return {
          pruned: await pruneEvents(
            this.dataSource,
            new Date(Date.now() - this.config.EVENT_RETENTION_DAYS * 86_400_000),
          ),
        };
    }
  }
}
