import { ALERTS_DELIVERY_QUEUE, DELIVERIES_DUE_JOB_ID } from '@paper/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { client, newAccount } from '../../alerts/alerts-test-kit';
import type { FaultLab } from './fault-lab';

/** An alerts account with a signed-webhook channel to the lab's receiver. */
export async function webhookAccount(lab: FaultLab): Promise<{ accountId: string; channelId: string }> {
  const call = client(lab.stack.alertsUrl);
  const { id, token } = await newAccount(call);
  const hook = await call<{ id: string; signingSecret: string }>('POST', '/api/channels', {
    token,
    body: { kind: 'webhook', target: `${lab.receiver.url}/alerts`, label: 'faults' },
  });
  if (hook.status !== 201) throw new Error(`webhook channel: ${hook.status} ${JSON.stringify(hook.body)}`);
  lab.receiver.setSecret(hook.body.signingSecret);
  return { accountId: id, channelId: hook.body.id };
}

/**
 * `count` alerts, each with one queued delivery to the channel, and one `deliveries-due` wake-up; resolves to the
 * deliveries.
 */
export async function queueDeliveries(
  lab: FaultLab,
  accountId: string,
  channelId: string,
  count: number,
): Promise<{ id: string; eventId: string }[]> {
  const out: { id: string; eventId: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const alertId = randomUUID();
    const eventId = `evt_${randomBytes(12).toString('hex')}`;
    await lab.sql(
      `INSERT INTO alerts.alerts (id, account_id, event_id, kind, wallet, details, occurred_at) VALUES ($1, $2, $3, 'position_opened', $4, $5, now())`,
      [
        alertId,
        accountId,
        eventId,
        '0x52908400098527886e0f7030069857d2e4169ee7',
        JSON.stringify({
          positionId: String(i + 1),
          market: 'BTC',
          side: 'long',
          leverage: 100,
          marginUsd: 100,
          entryPrice: 100000,
          notionalUsd: 10000,
        }),
      ],
    );
    const id = randomUUID();
    await lab.sql(
      `INSERT INTO alerts.deliveries (id, account_id, alert_id, channel_id, event_id, status) VALUES ($1, $2, $3, $4, $5, 'queued')`,
      [id, accountId, alertId, channelId, eventId],
    );
    out.push({ id, eventId });
  }
  const queue = lab.queue(ALERTS_DELIVERY_QUEUE.queue);
  await queue.add('deliveries-due', {}, { jobId: DELIVERIES_DUE_JOB_ID, removeOnComplete: true, removeOnFail: 100 });
  return out;
}

/** How many times the receiver was sent each event (every attempt, answered or not). */
export function hitsByEvent(lab: FaultLab): Map<string, number> {
  const hits = new Map<string, number>();
  for (const r of lab.receiver.received) if (r.eventId) hits.set(r.eventId, (hits.get(r.eventId) ?? 0) + 1);
  return hits;
}
