import type { WalletRules } from '@paper/contracts';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import type { ChannelKind, ChannelStatus } from '../entities/channel.entity';
import type { DeliveryStatus } from '../entities/delivery.entity';

/** An alert as the dispatcher renders it for every channel kind. */
export interface AlertForDelivery {
  alertId: string;
  eventId: string;
  kind: string;
  wallet: string | null;
  details: Record<string, unknown>;
  occurredAt: Date;
  createdAt: Date;
  watchId: string | null;
  watchLabel: string | null;
  watchRole: string | null;
}

/** The alert's watch as it is now, for the checks made before sending. */
export interface WatchForDelivery {
  rules: WalletRules;
  /** Its alerts are not sent until then (null: not muted). */
  mutedUntil: Date | null;
  /** At most one of its alerts per channel per this many seconds (0: none). */
  cooldownS: number;
  /** When an alert of the watch was last delivered to this channel (only read when it has a cooldown). */
  lastDeliveredAt: Date | null;
}

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
  channel: {
    id: string;
    kind: ChannelKind;
    target: string;
    secret: string | null;
    /** The secret a rotation replaced, while it still signs (else null). */
    previousSecret: string | null;
    status: ChannelStatus;
    disabledReason: string | null;
  };
  alert: AlertForDelivery;
  /** The alert's watch now (null for alerts of no watch, or of a watch deleted since). */
  watch: WatchForDelivery | null;
}

/** A claimed delivery joined with its channel, alert and watch, as the claim returns it. */
export interface ClaimedDeliveryRow {
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
  previous_secret: string | null;
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
  watch_rules: WalletRules | null;
  watch_muted_until: Date | null;
  watch_cooldown_s: number | null;
  watch_last_delivered_at: Date | null;
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
         c.id AS channel_id, c.kind AS channel_kind, c.target, c.secret,
         CASE WHEN c.previous_secret_expires_at > now() THEN c.previous_secret END AS previous_secret,
         c.status AS channel_status, c.disabled_reason,
         a.id AS alert_id, a.kind AS alert_kind, a.wallet, a.details, a.occurred_at, a.created_at AS alert_created_at, a.watch_id,
         w.label AS watch_label, w.role AS watch_role, w.rules AS watch_rules,
         w.muted_until AS watch_muted_until, w.cooldown_s AS watch_cooldown_s,
         CASE WHEN w.cooldown_s > 0 THEN (
           SELECT max(p.delivered_at) FROM alerts.deliveries p JOIN alerts.alerts pa ON pa.id = p.alert_id
            WHERE p.channel_id = d.channel_id AND p.status = 'delivered' AND pa.watch_id = w.id
              AND p.delivered_at > now() - make_interval(secs => w.cooldown_s)) END AS watch_last_delivered_at
    FROM claimed d
    JOIN alerts.channels c ON c.id = d.channel_id
    JOIN alerts.alerts a ON a.id = d.alert_id
    LEFT JOIN alerts.watches w ON w.id = a.watch_id
   ORDER BY coalesce(d.next_attempt_at, a.created_at), d.id`;

/**
 * Claims up to `limit` deliveries that are due (queued, or failed with their next attempt reached), and
 * those left `sending` by a dispatcher that stopped renewing them for `leaseMs` (it died mid-attempt):
 * each becomes `sending` with attempts + 1, taken by one dispatcher only (SKIP LOCKED), oldest first.
 */
export async function claimDueDeliveries(db: QueryExecutor, limit: number, leaseMs: number): Promise<DeliveryJob[]> {
  return (await queryRows<ClaimedDeliveryRow>(db, CLAIM, [limit, leaseMs])).map(toDeliveryJob);
}

function toDeliveryJob(r: ClaimedDeliveryRow): DeliveryJob {
  return {
    id: r.id,
    status: r.status,
    claimedFrom: r.claimed_from,
    attempts: r.attempts,
    rateLimited: r.rate_limited,
    nextAttemptAt: r.next_attempt_at,
    channel: {
      id: r.channel_id,
      kind: r.channel_kind,
      target: r.target,
      secret: r.secret,
      previousSecret: r.previous_secret,
      status: r.channel_status,
      disabledReason: r.disabled_reason,
    },
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
    watch: r.watch_rules
      ? {
          rules: r.watch_rules,
          mutedUntil: r.watch_muted_until,
          cooldownS: r.watch_cooldown_s ?? 0,
          lastDeliveredAt: r.watch_last_delivered_at,
        }
      : null,
  };
}
