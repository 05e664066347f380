import { Inject, Injectable } from '@nestjs/common';
import { isAlertsMigrationApplied, LATEST_ALERTS_MIGRATION } from '@paper/alerts-data';
import { AlertsErrorCode } from '@paper/contracts';
import { isDependencyOutage, OUTAGE_RETRY_AFTER_SECONDS } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import { AlertsException } from '@paper/alerts-accounts';

const CACHE_MS = 2000;
export const STORAGE_RETRY_AFTER_SECONDS = 300;

/**
 * Whether the alerts schema is applied: the newest migration is recorded in `alerts.migrations`.
 * Checked at most every 2 s (concurrent callers share one query), so applying the migrations turns
 * the service ready without a restart.
 */
@Injectable()
export class StorageReadiness {
  private cached?: { ready: boolean; at: number; unreachable: boolean };
  private inFlight?: Promise<boolean>;

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async isReady(): Promise<boolean> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.ready;
    this.inFlight ??= this.check().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  async assertReady(): Promise<void> {
    if (!(await this.isReady())) {
      if (this.cached?.unreachable) {
        throw new AlertsException(
          AlertsErrorCode.ServiceUnavailable,
          'The service could not reach its database just now. Please retry in a few seconds.',
          {
            'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS),
          },
        );
      }
      throw new AlertsException(
        AlertsErrorCode.ServiceInitializing,
        'The service is starting up: its storage is not initialised yet. Retry in a few minutes.',
        { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
      );
    }
  }

  private async check(): Promise<boolean> {
    let ready = false;
    let unreachable = false;
    if (this.dataSource.isInitialized) {
      try {
        ready = await isAlertsMigrationApplied(this.dataSource, LATEST_ALERTS_MIGRATION);
      } catch (error) {
        ready = false;
        unreachable = isDependencyOutage(error);
      }
    }
    this.cached = { ready, at: Date.now(), unreachable };
    return ready;
  }
}
