import { randomUUID } from 'node:crypto';
import { sql } from './alerts-test-kit';

/** Rows the poller and dispatcher write in production, inserted directly for API tests. */
export async function insertChannel(databaseUrl: string, accountId: string, kind = 'webhook'): Promise<string> {
  const [row] = await sql<{ id: string }>(
    databaseUrl,
    `INSERT INTO alerts.channels (account_id, kind, target, secret) VALUES ($1, $2, 'https://93.184.216.34/in', 'whsec_x') RETURNING id`,
    [accountId, kind],
  );
  return row!.id;
}

export interface AlertFixture {
  alertId: string;
  eventId: string;
  deliveryIds: string[];
}

/** One alert, created `secondsAgo` in the past, with one delivery per channel in the given status. */
export async function insertAlert(
  databaseUrl: string,
  accountId: string,
  channelIds: string[],
  options: { secondsAgo?: number; status?: string; kind?: string } = {},
): Promise<AlertFixture> {
  const eventId = `evt_${randomUUID()}`;
  const [alert] = await sql<{ id: string }>(
    databaseUrl,
    `INSERT INTO alerts.alerts (account_id, event_id, kind, wallet, details, occurred_at, created_at)
     VALUES ($1, $2, $3, '0x52908400098527886e0f7030069857d2e4169ee7', '{"market":"BTC","distancePct":"4.2"}', now() - make_interval(secs => $4), now() - make_interval(secs => $4))
     RETURNING id`,
    [accountId, eventId, options.kind ?? 'liquidation_risk', options.secondsAgo ?? 0],
  );
  const deliveryIds: string[] = [];
  for (const channelId of channelIds) {
    const [delivery] = await sql<{ id: string }>(
      databaseUrl,
      `INSERT INTO alerts.deliveries (account_id, alert_id, channel_id, event_id, status, attempts, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [
        accountId,
        alert!.id,
        channelId,
        eventId,
        options.status ?? 'delivered',
        options.status === 'dead' ? 8 : 1,
        options.status === 'dead' ? 'receiver answered 500' : null,
      ],
    );
    deliveryIds.push(delivery!.id);
  }
  return { alertId: alert!.id, eventId, deliveryIds };
}
