import { Inject, Injectable } from '@nestjs/common';
import type { ChannelKind, ChannelStatus, DeliveryStatus } from '@paper/alerts-data';
import { DataSource } from 'typeorm';
import type { AlertForDelivery } from '../messages/alert-message';
import { CoalescedCalls } from './coalesced-calls';

/** A delivery with its channel and alert, as one attempt needs it. */
export interface DeliveryJob {
  id: string;
  status: DeliveryStatus;
  attempts: number;
  /** Rate-limited answers so far (not counted as attempts). */
  rateLimited: number;
  nextAttemptAt: Date | null;
  channel: { id: string; kind: ChannelKind; target: string; secret: string | null; status: ChannelStatus; disabledReason: string | null };
  alert: AlertForDelivery;
}

interface Row {
  id: string;
  status: DeliveryStatus;
  attempts: number;
  rate_limited: number;
  next_attempt_at: Date | null;
  event_id: string;
  channel_id: string;
  channel_kind: ChannelKind;
  target: string;
  secret: string | null;
  channel_status: ChannelStatus;
  disabled_reason: string | null;
  alert_id: string;
  alert_kind: string;
  wallet: string | null;
  details: Record<string, unknown>;
  occurred_at: Date;
  alert_created_at: Date;
  watch_id: string | null;
  watch_label: string | null;
  watch_role: string | null;
}

const SELECT = `
  SELECT d.id, d.status, d.attempts, d.rate_limited, d.next_attempt_at, d.event_id,
         c.id AS channel_id, c.kind AS channel_kind, c.target, c.secret, c.status AS channel_status, c.disabled_reason,
         a.id AS alert_id, a.kind AS alert_kind, a.wallet, a.details, a.occurred_at, a.created_at AS alert_created_at, a.watch_id,
         w.label AS watch_label, w.role AS watch_role
    FROM alerts.deliveries d
    JOIN alerts.channels c ON c.id = d.channel_id
    JOIN alerts.alerts a ON a.id = d.alert_id
    LEFT JOIN alerts.watches w ON w.id = a.watch_id
   WHERE d.id = ANY($1::uuid[])`;

/**
 * Delivery rows: load, claim an attempt, record its outcome. Every write checks the status it expects.
 * Loads, claims and successful outcomes of deliveries in flight together are one statement each
 * (CoalescedCalls): a dispatcher at its concurrency makes a few statements per batch, not per delivery.
 */
@Injectable()
export class DeliveryStore {
  private readonly loads = new CoalescedCalls<string, DeliveryJob>((ids) => this.loadMany(ids));
  private readonly claims = new CoalescedCalls<string, number>((ids) => this.claimMany(ids));
  private readonly deliveries = new CoalescedCalls<string, true>((ids) => this.deliveredMany(ids));

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  load(id: string): Promise<DeliveryJob | undefined> {
    return this.loads.call(id);
  }

  private async loadMany(ids: string[]): Promise<Map<string, DeliveryJob>> {
    const rows = (await this.dataSource.query(SELECT, [ids])) as Row[];
    return new Map(rows.map((r) => [r.id, toJob(r)]));
  }

  /** Starts an attempt: `sending`, attempts + 1. Undefined when the delivery is no longer pending. */
  claim(id: string): Promise<number | undefined> {
    return this.claims.call(id);
  }

  private async claimMany(ids: string[]): Promise<Map<string, number>> {
    const [rows] = (await this.dataSource.query(
      `UPDATE alerts.deliveries SET status = 'sending', attempts = attempts + 1, updated_at = now()
        WHERE id = ANY($1::uuid[]) AND status IN ('queued', 'failed', 'sending') RETURNING id, attempts`,
      [ids],
    )) as [{ id: string; attempts: number }[], number];
    return new Map(rows.map((r) => [r.id, r.attempts]));
  }

  async delivered(id: string): Promise<void> {
    await this.deliveries.call(id);
  }

  private async deliveredMany(ids: string[]): Promise<Map<string, true>> {
    await this.dataSource.query(
      `UPDATE alerts.deliveries SET status = 'delivered', delivered_at = now(), last_error = NULL, next_attempt_at = NULL, updated_at = now()
        WHERE id = ANY($1::uuid[]) AND status = 'sending'`,
      [ids],
    );
    return new Map(ids.map((id) => [id, true as const]));
  }

  async retryLater(id: string, reason: string, at: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE alerts.deliveries SET status = 'failed', last_error = $2, next_attempt_at = $3, updated_at = now() WHERE id = $1 AND status = 'sending'`,
      [id, reason.slice(0, 500), at],
    );
  }

  /**
   * The receiver answered 429: the attempt that was just claimed is given back (it did not fail) and
   * the rate-limited count goes up; the next attempt is at `at`.
   */
  async rateLimited(id: string, reason: string, at: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE alerts.deliveries SET status = 'failed', attempts = greatest(attempts - 1, 0), rate_limited = rate_limited + 1, last_error = $2, next_attempt_at = $3, updated_at = now()
        WHERE id = $1 AND status = 'sending'`,
      [id, reason.slice(0, 500), at],
    );
  }

  /** Dead letter (re-queued only by its owner through POST /api/deliveries/{id}/retry). */
  async dead(id: string, reason: string, from: readonly DeliveryStatus[] = ['sending']): Promise<void> {
    await this.dataSource.query(
      `UPDATE alerts.deliveries SET status = 'dead', last_error = $2, next_attempt_at = NULL, updated_at = now() WHERE id = $1 AND status = ANY($3::text[])`,
      [id, reason.slice(0, 500), from],
    );
  }

  /** The receiver is gone for good: disable the channel (with the reason shown to its owner) and dead-letter this delivery. */
  async disableChannel(id: string, channelId: string, reason: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query(`UPDATE alerts.channels SET status = 'disabled', disabled_reason = $2, updated_at = now() WHERE id = $1 AND status <> 'disabled'`, [channelId, reason.slice(0, 500)]);
      await m.query(`UPDATE alerts.deliveries SET status = 'dead', last_error = $2, next_attempt_at = NULL, updated_at = now() WHERE id = $1 AND status = 'sending'`, [
        id,
        `channel disabled: ${reason}`.slice(0, 500),
      ]);
    });
  }

  /** Deliveries that should have a job but may not (crash between commit and enqueue, lost or failed job). */
  async overdue(graceMs: number, sendingGraceMs: number, limit = 500): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM alerts.deliveries
        WHERE (status IN ('queued', 'failed') AND coalesce(next_attempt_at, created_at) < now() - make_interval(secs => $1::double precision / 1000))
           OR (status = 'sending' AND updated_at < now() - make_interval(secs => $2::double precision / 1000))
        ORDER BY coalesce(next_attempt_at, created_at) LIMIT $3`,
      [graceMs, sendingGraceMs, limit],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }
}

function toJob(r: Row): DeliveryJob {
  return {
    id: r.id,
    status: r.status,
    attempts: r.attempts,
    rateLimited: r.rate_limited,
    nextAttemptAt: r.next_attempt_at,
    channel: { id: r.channel_id, kind: r.channel_kind, target: r.target, secret: r.secret, status: r.channel_status, disabledReason: r.disabled_reason },
    alert: {
      alertId: r.alert_id,
      eventId: r.event_id,
      kind: r.alert_kind,
      wallet: r.wallet,
      details: r.details,
      occurredAt: r.occurred_at,
      createdAt: r.alert_created_at,
      watchId: r.watch_id,
      watchLabel: r.watch_label,
      watchRole: r.watch_role,
    },
  };
}
