import { Inject, Injectable } from '@nestjs/common';
import type { ChannelKind, ChannelStatus, DeliveryStatus } from '@paper/alerts-data';
import { DataSource } from 'typeorm';
import type { AlertForDelivery } from '../messages/alert-message';
import { CoalescedCalls } from './coalesced-calls';

/** A delivery with its channel and alert, as one attempt needs it. */
export interface DeliveryJob {
  id: string;
  status: DeliveryStatus;
  /** The status it was claimed from: `sending` means a dispatcher stopped mid-attempt (it may have sent it). */
  claimedFrom: DeliveryStatus;
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
  claimed_from: DeliveryStatus;
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

/** The claim: due rows (and lapsed `sending` ones) become `sending`, returned with their channel, alert and watch. */
const CLAIM = `
  WITH due AS (
    SELECT id, status AS claimed_from FROM alerts.deliveries
     WHERE (status IN ('queued', 'failed') AND (next_attempt_at IS NULL OR next_attempt_at <= now()))
        OR (status = 'sending' AND updated_at < now() - make_interval(secs => $2::double precision / 1000))
     ORDER BY coalesce(next_attempt_at, created_at), id
     LIMIT $1
     FOR UPDATE SKIP LOCKED),
  claimed AS (
    UPDATE alerts.deliveries d SET status = 'sending', attempts = d.attempts + 1, updated_at = now()
      FROM due WHERE d.id = due.id
    RETURNING d.id, d.status, due.claimed_from, d.attempts, d.rate_limited, d.next_attempt_at, d.event_id, d.channel_id, d.alert_id)
  SELECT d.id, d.status, d.claimed_from, d.attempts, d.rate_limited, d.next_attempt_at, d.event_id,
         c.id AS channel_id, c.kind AS channel_kind, c.target, c.secret, c.status AS channel_status, c.disabled_reason,
         a.id AS alert_id, a.kind AS alert_kind, a.wallet, a.details, a.occurred_at, a.created_at AS alert_created_at, a.watch_id,
         w.label AS watch_label, w.role AS watch_role
    FROM claimed d
    JOIN alerts.channels c ON c.id = d.channel_id
    JOIN alerts.alerts a ON a.id = d.alert_id
    LEFT JOIN alerts.watches w ON w.id = a.watch_id
   ORDER BY coalesce(d.next_attempt_at, a.created_at), d.id`;

/**
 * Delivery rows: claim the due ones in batches, record each attempt's outcome. Every write checks the
 * status it expects. Successful outcomes of deliveries in flight together are one statement
 * (CoalescedCalls): a dispatcher at its concurrency makes a few statements per batch, not per delivery.
 */
@Injectable()
export class DeliveryStore {
  private readonly deliveries = new CoalescedCalls<string, true>((ids) => this.deliveredMany(ids));

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Claims up to `limit` deliveries that are due (queued, or failed with their next attempt reached), and
   * those left `sending` by a dispatcher that stopped renewing them for `leaseMs` (it died mid-attempt):
   * each becomes `sending` with attempts + 1, taken by one dispatcher only (SKIP LOCKED), oldest first.
   */
  async claimDue(limit: number, leaseMs: number): Promise<DeliveryJob[]> {
    return ((await this.dataSource.query(CLAIM, [limit, leaseMs])) as Row[]).map(toJob);
  }

  /** Keeps the deliveries this dispatcher is sending claimed (their lease runs from the last renewal). */
  async renew(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(`UPDATE alerts.deliveries SET updated_at = now() WHERE id = ANY($1::uuid[]) AND status = 'sending'`, [ids]);
  }

  /** A claimed delivery that may not be sent yet (its destination's rate limit): the attempt is given back and it is due again at `at`. */
  async postpone(id: string, at: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE alerts.deliveries SET status = CASE WHEN attempts > 1 THEN 'failed' ELSE 'queued' END, attempts = greatest(attempts - 1, 0), next_attempt_at = $2, updated_at = now()
        WHERE id = $1 AND status = 'sending'`,
      [id, at],
    );
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

  /** Dead letter (re-queued only by its owner through POST /api/deliveries/{id}/retry); `unsent` gives the claimed attempt back (nothing was sent). */
  async dead(id: string, reason: string, unsent = false): Promise<void> {
    await this.dataSource.query(
      `UPDATE alerts.deliveries SET status = 'dead', last_error = $2, next_attempt_at = NULL, attempts = CASE WHEN $3 THEN greatest(attempts - 1, 0) ELSE attempts END, updated_at = now()
        WHERE id = $1 AND status = 'sending'`,
      [id, reason.slice(0, 500), unsent],
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
}

function toJob(r: Row): DeliveryJob {
  return {
    id: r.id,
    status: r.status,
    claimedFrom: r.claimed_from,
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
