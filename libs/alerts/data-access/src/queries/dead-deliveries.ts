import { type QueryExecutor, queryRow, queryRows } from '@paper/sql-rows';
import type { ChannelKind } from '../entities/channel.entity';
import type { DeliveryStatus } from '../entities/delivery.entity';
import type { AlertKind } from '../entities/alert.entity';

/** A delivery with its channel's kind and label and what its alert is about, as its owner sees it. */
export interface DeliveryWithAlertRow {
  id: string;
  alert_id: string;
  event_id: string;
  channel_id: string;
  channel_kind: ChannelKind;
  channel_label: string | null;
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  updated_at: Date;
  alert_kind: AlertKind;
  wallet: string | null;
  occurred_at: Date;
}

const SELECT = `
  SELECT d.id, d.alert_id, d.event_id, d.channel_id, c.kind AS channel_kind, c.label AS channel_label, d.status, d.attempts,
         d.last_error, d.next_attempt_at, d.delivered_at, d.updated_at, a.kind AS alert_kind, a.wallet, a.occurred_at
    FROM alerts.deliveries d
    JOIN alerts.channels c ON c.id = d.channel_id
    JOIN alerts.alerts a ON a.id = d.alert_id`;

/** The account's dead-lettered deliveries, last changed first, at most `limit`. */
export function deadDeliveriesOf(db: QueryExecutor, accountId: string, limit: number): Promise<DeliveryWithAlertRow[]> {
  return queryRows<DeliveryWithAlertRow>(
    db,
    `${SELECT} WHERE d.account_id = $1 AND d.status = 'dead' ORDER BY d.updated_at DESC, d.id DESC LIMIT $2`,
    [accountId, limit],
  );
}

/** One delivery (of any account and status), or undefined when there is none with this id. */
export function deliveryWithAlert(db: QueryExecutor, id: string): Promise<DeliveryWithAlertRow | undefined> {
  return queryRow<DeliveryWithAlertRow>(db, `${SELECT} WHERE d.id = $1`, [id]);
}
