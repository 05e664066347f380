import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import type { ChannelKind } from '../entities/channel.entity';
import type { DeliveryStatus } from '../entities/delivery.entity';

/** One delivery of an alert, with the kind and label of its channel. */
export interface AlertDeliveryRow {
  id: string;
  alert_id: string;
  channel_id: string;
  kind: ChannelKind;
  label: string | null;
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
}

/** The deliveries of these alerts, oldest first. */
export function deliveriesOfAlerts(db: QueryExecutor, alertIds: readonly string[]): Promise<AlertDeliveryRow[]> {
  return queryRows<AlertDeliveryRow>(
    db,
    `SELECT d.id, d.alert_id, d.channel_id, c.kind, c.label, d.status, d.attempts, d.last_error, d.next_attempt_at, d.delivered_at
         FROM alerts.deliveries d JOIN alerts.channels c ON c.id = d.channel_id
        WHERE d.alert_id = ANY($1::uuid[]) ORDER BY d.created_at, d.id`,
    [alertIds],
  );
}

/** When the newest alert of each watch of the account was created (watches without alerts are absent). */
export async function lastAlertAtByWatch(db: QueryExecutor, accountId: string): Promise<Map<string, Date>> {
  const rows = await queryRows<{ watch_id: string; last: Date }>(
    db,
    `SELECT watch_id, max(created_at) AS last FROM alerts.alerts WHERE account_id = $1 AND watch_id IS NOT NULL GROUP BY watch_id`,
    [accountId],
  );
  return new Map(rows.map((r) => [r.watch_id, r.last]));
}
