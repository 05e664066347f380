import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SESSION_KEYS_QUEUE } from '@paper/contracts';
import { metricsRegistry, QueueRegistry } from '@paper/nest-infra';
import { claimDueRevocations, confirmRevocation, type PendingRevocation } from '@paper/oauth-data';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { exchangeConfirms, revokeJobId, SessionKeyRevocations } from './session-key-revocations.service';

/** How often due revocations are looked for, and the backoff between re-sends of one revocation. */
export const REVOCATION_SWEEP_MS = 1000;
export const REVOCATION_BACKOFF = { baseMs: 1000, maxMs: 60_000 };
const BATCH = 100;

const resent = new Counter({
  name: 'oauth_revocations_resent_total',
  help: 'Session-key revocations sent to the exchange again by the sweeper (the job failed or Redis lost it)',
  registers: [metricsRegistry],
});

/**
 * Completes recorded revocations the exchange has not confirmed (every replica runs it; a row is claimed
 * by one at a time): a job that completed with the exchange's confirmation completes the record; a job that
 * failed or is missing (Redis lost it) is sent again; a queued or running one is left to finish. Each
 * re-check moves the row's next attempt out with exponential backoff, up to a minute.
 */
@Injectable()
export class RevocationSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RevocationSweeper');
  private timer?: NodeJS.Timeout;
  private running: Promise<void> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: QueueRegistry,
    private readonly revocations: SessionKeyRevocations,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running || !this.dataSource.isInitialized) return;
      this.running = this.sweep()
        .then(() => undefined)
        .catch((error: Error) => this.logger.warn(`revocation sweep failed (retried): ${error.message}`))
        .finally(() => (this.running = null));
    }, REVOCATION_SWEEP_MS).unref();
  }

  /** One pass; returns how many revocations were re-checked. */
  async sweep(): Promise<number> {
    const due = await claimDueRevocations(this.dataSource, BATCH, REVOCATION_BACKOFF);
    for (const p of due) await this.recheck(p);
    return due.length;
  }

  private async recheck(p: PendingRevocation): Promise<void> {
    const queue = this.queues.queue(SESSION_KEYS_QUEUE);
    const jobId = revokeJobId(p.sessionKey);
    const state = await queue.getJobState(jobId);
    if (state === 'completed') {
      const job = await queue.getJob(jobId);
      if (exchangeConfirms(job?.returnvalue)) return confirmRevocation(this.dataSource, p.sessionKey);
    }
    if (state === 'completed' || state === 'failed') await queue.remove(jobId);
    if (state === 'completed' || state === 'failed' || state === 'unknown') {
      this.logger.warn(`revocation of ${p.sessionKey} not confirmed by the exchange (${state}); sending it again`);
      resent.inc();
      await this.revocations.wake(p);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
