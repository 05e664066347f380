import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AlertKind } from '@paper/alerts-data';
import { ALERTS_DELIVERY_QUEUE, DELIVERIES_DUE_JOB_ID } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { DataSource, type EntityManager } from 'typeorm';
import { alertIdFor, deliveryIdFor } from './alert-ids';

export interface PendingAlert {
  accountId: string;
  watchId: string | null;
  eventId: string;
  kind: AlertKind;
  wallet: string | null;
  details: Record<string, unknown>;
  occurredAt: Date;
}

/** A rule-state row to write (`state: null` deletes it). */
export interface StateWrite {
  scopeId: string;
  rule: string;
  state: object | null;
}

export interface PollStatusWrite {
  name: string;
  startedAt: Date;
  finishedAt: Date;
  ok: boolean;
  error: string | null;
  durationMs: number;
  details: object;
}

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
 * lease still holds. Then enqueues the `deliver` jobs (job id = delivery id). The rows are the outbox: if the process dies between the commit and the enqueue, the
 * dispatchers find the queued deliveries by themselves (they read due rows, jobs only wake them).
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
      await this.writeStates(m, 'rule_state', 'watch_id', 'watches', cycle.ruleStates);
      await this.writeStates(m, 'protocol_rule_state', 'account_id', 'accounts', cycle.protocolStates);
      const created = await this.insertAlerts(m, cycle.alerts);
      const deliveryIds = await this.insertDeliveries(m, created);
      await this.writePoll(m, cycle.poll);
      return { alertsCreated: created.length, deliveryIds };
    });
    await this.enqueue(result.deliveryIds);
    return result;
  }

  /** Records a cycle that failed before it could commit (the details document is left as it was). */
  async recordFailure(name: string, startedAt: Date, error: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO alerts.poll_status (name, last_started_at, last_finished_at, last_ok, last_error, last_duration_ms, updated_at)
       VALUES ($1, $2, now(), false, $3, $4, now())
       ON CONFLICT (name) DO UPDATE SET last_started_at = $2, last_finished_at = now(), last_ok = false, last_error = $3, last_duration_ms = $4, updated_at = now()`,
      [name, startedAt, error.slice(0, 500), Date.now() - startedAt.getTime()],
    );
  }

  /** Wakes the dispatchers for committed deliveries (one wake-up however many; they read the rows themselves). */
  async enqueue(deliveryIds: readonly string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    try {
      await this.queues.add(ALERTS_DELIVERY_QUEUE, 'deliveries-due', {}, { jobId: DELIVERIES_DUE_JOB_ID });
    } catch (error) {
      this.logger.warn(`waking the dispatchers for ${deliveryIds.length} deliveries failed (they find due deliveries by themselves): ${(error as Error).message}`);
    }
  }

  private async checkFence(m: EntityManager, name: string, fence: CommitFence): Promise<void> {
    await m.query(`INSERT INTO alerts.poll_status (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [name]);
    const [row] = (await m.query(`SELECT details->>'generation' AS generation FROM alerts.poll_status WHERE name = $1 FOR UPDATE`, [name])) as { generation: string | null }[];
    await fence.confirm?.();
    if ((row?.generation ?? undefined) !== fence.generation) throw new StalePassError(name);
  }

  private async writeStates(m: EntityManager, table: string, key: string, parent: string, writes: readonly StateWrite[]): Promise<void> {
    const upserts = writes.filter((w) => w.state !== null);
    const deletes = writes.filter((w) => w.state === null);
    if (upserts.length > 0) {
      await m.query(
        `INSERT INTO alerts.${table} (${key}, rule, state, updated_at)
         SELECT x.scope, x.rule, x.state, now() FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) AS x(scope, rule, state)
          WHERE EXISTS (SELECT 1 FROM alerts.${parent} p WHERE p.id = x.scope)
         ON CONFLICT (${key}, rule) DO UPDATE SET state = EXCLUDED.state, updated_at = now()`,
        [upserts.map((w) => w.scopeId), upserts.map((w) => w.rule), upserts.map((w) => JSON.stringify(w.state))],
      );
    }
    if (deletes.length > 0) {
      await m.query(`DELETE FROM alerts.${table} t USING unnest($1::uuid[], $2::text[]) AS x(scope, rule) WHERE t.${key} = x.scope AND t.rule = x.rule`, [
        deletes.map((w) => w.scopeId),
        deletes.map((w) => w.rule),
      ]);
    }
  }

  private async insertAlerts(m: EntityManager, alerts: readonly PendingAlert[]): Promise<{ id: string; account_id: string; event_id: string }[]> {
    if (alerts.length === 0) return [];
    return (await m.query(
      `INSERT INTO alerts.alerts (id, account_id, watch_id, event_id, kind, wallet, details, occurred_at)
       SELECT x.id, x.account_id, w.id, x.event_id, x.kind, x.wallet, x.details, x.occurred_at
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::timestamptz[])
              AS x(id, account_id, watch_id, event_id, kind, wallet, details, occurred_at)
         JOIN alerts.accounts a ON a.id = x.account_id
         LEFT JOIN alerts.watches w ON w.id = x.watch_id
       ON CONFLICT DO NOTHING
       RETURNING id, account_id, event_id`,
      [
        alerts.map((a) => alertIdFor(a.accountId, a.eventId)),
        alerts.map((a) => a.accountId),
        alerts.map((a) => a.watchId),
        alerts.map((a) => a.eventId),
        alerts.map((a) => a.kind),
        alerts.map((a) => a.wallet),
        alerts.map((a) => JSON.stringify(a.details)),
        alerts.map((a) => a.occurredAt.toISOString()),
      ],
    )) as { id: string; account_id: string; event_id: string }[];
  }

  /** Paused and disabled channels get no delivery at all ("paused channels receive nothing"). */
  private async insertDeliveries(m: EntityManager, created: readonly { id: string; account_id: string; event_id: string }[]): Promise<string[]> {
    if (created.length === 0) return [];
    const channels = (await m.query(`SELECT id, account_id FROM alerts.channels WHERE account_id = ANY($1::uuid[]) AND status = 'active'`, [
      [...new Set(created.map((a) => a.account_id))],
    ])) as { id: string; account_id: string }[];
    const rows = created.flatMap((a) => channels.filter((c) => c.account_id === a.account_id).map((c) => ({ id: deliveryIdFor(a.event_id, c.id), alert: a, channelId: c.id })));
    if (rows.length === 0) return [];
    const inserted = (await m.query(
      `INSERT INTO alerts.deliveries (id, account_id, alert_id, channel_id, event_id, status, next_attempt_at)
       SELECT x.id, x.account_id, x.alert_id, x.channel_id, x.event_id, 'queued', now()
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[]) AS x(id, account_id, alert_id, channel_id, event_id)
       ON CONFLICT DO NOTHING RETURNING id`,
      [rows.map((r) => r.id), rows.map((r) => r.alert.account_id), rows.map((r) => r.alert.id), rows.map((r) => r.channelId), rows.map((r) => r.alert.event_id)],
    )) as { id: string }[];
    return inserted.map((r) => r.id);
  }

  private async writePoll(m: EntityManager, p: PollStatusWrite): Promise<void> {
    await m.query(
      `INSERT INTO alerts.poll_status (name, last_started_at, last_finished_at, last_ok, last_error, last_duration_ms, details, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, now())
       ON CONFLICT (name) DO UPDATE SET last_started_at = $2, last_finished_at = $3, last_ok = $4, last_error = $5,
         last_duration_ms = $6, details = $7::jsonb, updated_at = now()`,
      [p.name, p.startedAt, p.finishedAt, p.ok, p.error?.slice(0, 500) ?? null, p.durationMs, JSON.stringify(p.details)],
    );
  }
}
