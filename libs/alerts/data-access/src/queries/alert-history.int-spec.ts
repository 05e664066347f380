import type { DataSource } from 'typeorm';
import { createAlertsQueryDatabase, type AlertsQueryDatabase } from '../testing/alerts-query-database';
import { AlertsSeed } from '../testing/alerts-seed';
import { deliveriesOfAlerts, lastAlertAtByWatch } from './alert-history';

describe('alert history queries (PostgreSQL)', () => {
  let database: AlertsQueryDatabase;
  let db: DataSource;
  let seed: AlertsSeed;
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));

  beforeAll(async () => {
    database = await createAlertsQueryDatabase('alerts_history');
    db = database.dataSource;
    seed = new AlertsSeed(db);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('gives the newest alert time of each watch of the account that has alerts', async () => {
    const account = await seed.account();
    const other = await seed.account();
    const [w1, w2, quiet] = [
      await seed.watch(account, `0x${'1'.repeat(40)}`),
      await seed.watch(account, `0x${'2'.repeat(40)}`),
      await seed.watch(account, `0x${'3'.repeat(40)}`),
    ];
    await seed.alert(account, w1, at(1));
    await seed.alert(account, w1, at(5));
    await seed.alert(account, w2, at(2));
    await seed.alert(account, null, at(9));
    await seed.alert(other, await seed.watch(other, `0x${'1'.repeat(40)}`), at(8));
    const last = await lastAlertAtByWatch(db, account);
    expect(last).toEqual(
      new Map([
        [w1, at(5)],
        [w2, at(2)],
      ]),
    );
    expect(last.has(quiet)).toBe(false);
  });

  it('lists the deliveries of the alerts asked for, oldest first, with their channel', async () => {
    const account = await seed.account();
    const hook = await seed.channel(account, 'webhook', 'Hook');
    const chat = await seed.channel(account, 'telegram', null);
    const first = await seed.alert(account, null, at(1));
    const second = await seed.alert(account, null, at(2));
    const unasked = await seed.alert(account, null, at(3));
    const d2 = await seed.delivery(account, first, chat, 'failed', at(12), 'timeout');
    const d1 = await seed.delivery(account, first, hook, 'delivered', at(11));
    const d3 = await seed.delivery(account, second, hook, 'queued', at(13));
    await seed.delivery(account, unasked, hook, 'queued', at(14));
    const rows = await deliveriesOfAlerts(db, [first.id, second.id]);
    expect(rows.map((r) => r.id)).toEqual([d1, d2, d3]);
    expect(rows[1]).toEqual({
      id: d2,
      alert_id: first.id,
      channel_id: chat,
      kind: 'telegram',
      label: null,
      status: 'failed',
      attempts: 3,
      last_error: 'timeout',
      next_attempt_at: null,
      delivered_at: null,
    });
    await expect(deliveriesOfAlerts(db, [])).resolves.toEqual([]);
  });
});
