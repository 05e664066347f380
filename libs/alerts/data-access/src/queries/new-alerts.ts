import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import type { AlertKind } from '../entities/alert.entity';

/** An alert to store; `id` is derived from the account and the event id, so storing it again changes nothing. */
export interface NewAlert {
  id: string;
  accountId: string;
  watchId: string | null;
  eventId: string;
  kind: AlertKind;
  wallet: string | null;
  details: Record<string, unknown>;
  occurredAt: Date;
}

/** An alert that was stored just now (not already there). */
export interface InsertedAlertRow {
  id: string;
  account_id: string;
  event_id: string;
}

/** A delivery to queue: one alert to one channel. */
export interface NewDelivery {
  id: string;
  accountId: string;
  alertId: string;
  channelId: string;
  eventId: string;
}

/**
 * Stores new alerts and returns those that were not stored yet (idempotent by id and event id). Alerts of
 * an account that no longer exists are skipped; a watch deleted meanwhile leaves the alert's watch_id null.
 */
export async function insertNewAlerts(db: QueryExecutor, alerts: readonly NewAlert[]): Promise<InsertedAlertRow[]> {
  if (alerts.length === 0) return [];
  return queryRows<InsertedAlertRow>(
    db,
    `INSERT INTO alerts.alerts (id, account_id, watch_id, event_id, kind, wallet, details, occurred_at)
       SELECT x.id, x.account_id, w.id, x.event_id, x.kind, x.wallet, x.details, x.occurred_at
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::timestamptz[])
              AS x(id, account_id, watch_id, event_id, kind, wallet, details, occurred_at)
         JOIN alerts.accounts a ON a.id = x.account_id
         LEFT JOIN alerts.watches w ON w.id = x.watch_id
       ON CONFLICT DO NOTHING
       RETURNING id, account_id, event_id`,
    [
      alerts.map((a) => a.id),
      alerts.map((a) => a.accountId),
      alerts.map((a) => a.watchId),
      alerts.map((a) => a.eventId),
      alerts.map((a) => a.kind),
      alerts.map((a) => a.wallet),
      alerts.map((a) => JSON.stringify(a.details)),
      alerts.map((a) => a.occurredAt.toISOString()),
    ],
  );
}

/** An active channel (paused and disabled channels receive nothing). */
export interface ActiveChannelRow {
  id: string;
  account_id: string;
}

/** The active channels of these accounts. */
export function activeChannelsOf(db: QueryExecutor, accountIds: readonly string[]): Promise<ActiveChannelRow[]> {
  return queryRows<ActiveChannelRow>(
    db,
    `SELECT id, account_id FROM alerts.channels WHERE account_id = ANY($1::uuid[]) AND status = 'active'`,
    [accountIds],
  );
}

/**
 * Queues deliveries, due now; returns the ids of those that were not queued yet (idempotent by id and by alert and
 * channel).
 */
export async function insertQueuedDeliveries(db: QueryExecutor, deliveries: readonly NewDelivery[]): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    `INSERT INTO alerts.deliveries (id, account_id, alert_id, channel_id, event_id, status, next_attempt_at)
       SELECT x.id, x.account_id, x.alert_id, x.channel_id, x.event_id, 'queued', now()
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[]) AS x(id, account_id, alert_id, channel_id, event_id)
       ON CONFLICT DO NOTHING RETURNING id`,
    [
      deliveries.map((d) => d.id),
      deliveries.map((d) => d.accountId),
      deliveries.map((d) => d.alertId),
      deliveries.map((d) => d.channelId),
      deliveries.map((d) => d.eventId),
    ],
  );
  return rows.map((r) => r.id);
}
