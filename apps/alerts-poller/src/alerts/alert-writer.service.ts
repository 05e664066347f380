import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  activeChannelsOf,
  type InsertedAlertRow,
  insertNewAlerts,
  type NewAlert,
  insertQueuedDeliveries,
  lockPollGeneration,
  type PollStatusWrite,
  recordPollFailure,
  type StateWrite,
  writePollStatus,
  writeRuleStates,
} from '@paper/alerts-data';
import { ALERTS_DELIVERY_QUEUE, DELIVERIES_DUE_JOB_ID } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { DataSource, type EntityManager } from 'typeorm';
import { alertIdFor, deliveryIdFor } from './alert-ids';

/** An alert a poll cycle found; its id is derived when it is stored. */
export type PendingAlert = Omit<NewAlert, 'id'>;

export interface CycleCommit {
  alerts: PendingAlert[];
  ruleStates: StateWrite[];
  protocolStates: StateWrite[];
  poll: PollStatusWrite;
}

/**
 * What a pass proves before its results are committed: the poll document it started from is still the
 * latest (`generation`, compared under a row lock), and, when it runs under a poll lease, that the
 * lease is still its own (`confirm`, checked and extended atomically in Redis).
 */
export interface CommitFence {
  generation: string | undefined;
  confirm?: () => Promise<void>;
}

/** Another pass committed after this one read its inputs: this pass's results are stale and are not written. */
export class StalePassError extends Error {
  constructor(poll: string) {
    super(`${poll} poll: another pass committed since this one started; its results are dropped`);
    this.name = 'StalePassError';
  }
}

/**
 * Commits one poll cycle atomically: rule states, new alerts (idempotent by event id), one delivery
 * per new alert and active channel, and the poll status. With a fence, the poll-status row is locked
 * first and the commit goes ahead only if no other pass committed since this one started and its
 * lease still holds. Then wakes the dispatchers (one `deliveries-due` job). The rows are the outbox: if the
 * process dies between the commit and the wake-up, the dispatchers find the queued deliveries by
 * themselves (they read due rows, jobs only wake them).
 */
@Injectable()
export class AlertWriter {
  private readonly logger = new Logger(AlertWriter.name);

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly queues: QueueRegistry,
  ) {}

  async commit(cycle: CycleCommit, fence?: CommitFence): Promise<{ alertsCreated: number; deliveryIds: string[] }> {
    const result = await this.dataSource.transaction(async (m) => {
      if (fence) await this.checkFence(m, cycle.poll.name, fence);
      await writeRuleStates(m, 'watch', cycle.ruleStates);
      await writeRuleStates(m, 'account', cycle.protocolStates);
      const created = await insertNewAlerts(
        m,
        cycle.alerts.map((a) => ({ ...a, id: alertIdFor(a.accountId, a.eventId) })),
      );
      const deliveryIds = await this.insertDeliveries(m, created);
      await writePollStatus(m, cycle.poll);
      return { alertsCreated: created.length, deliveryIds };
    });
    await this.enqueue(result.deliveryIds);
    return result;
  }

  /** Records a cycle that failed before it could commit (the details document is left as it was). */
  async recordFailure(name: string, startedAt: Date, error: string): Promise<void> {
    await recordPollFailure(this.dataSource, name, startedAt, error);
  }

  /** Wakes the dispatchers for committed deliveries (one wake-up however many; they read the rows themselves). */
  async enqueue(deliveryIds: readonly string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    try {
      await this.queues.add(ALERTS_DELIVERY_QUEUE, 'deliveries-due', {}, { jobId: DELIVERIES_DUE_JOB_ID });
    } catch (error) {
      this.logger.warn(
        `waking the dispatchers for ${deliveryIds.length} deliveries failed (they find due deliveries by ` +
          `themselves): ${(error as Error).message}`,
      );
    }
  }

  private async checkFence(m: EntityManager, name: string, fence: CommitFence): Promise<void> {
    const generation = await lockPollGeneration(m, name);
    await fence.confirm?.();
    if (generation !== fence.generation) throw new StalePassError(name);
  }

  /** Paused and disabled channels get no delivery at all ("paused channels receive nothing"). */
  private async insertDeliveries(m: EntityManager, created: readonly InsertedAlertRow[]): Promise<string[]> {
    if (created.length === 0) return [];
    const channels = await activeChannelsOf(m, [...new Set(created.map((a) => a.account_id))]);
    const deliveries = created.flatMap((a) =>
      channels
        .filter((c) => c.account_id === a.account_id)
        .map((c) => ({
          id: deliveryIdFor(a.event_id, c.id),
          accountId: a.account_id,
          alertId: a.id,
          channelId: c.id,
          eventId: a.event_id,
        })),
    );
    return insertQueuedDeliveries(m, deliveries);
  }
}
