import type { DataSource } from 'typeorm';
import { createAlertsQueryDatabase, type AlertsQueryDatabase } from '../testing/alerts-query-database';
import { AlertsSeed } from '../testing/alerts-seed';
import { deadDeliveriesOf, deliveryWithAlert } from './dead-deliveries';

describe('dead delivery queries (PostgreSQL)', () => {
  let database: AlertsQueryDatabase;
  let db: DataSource;
  const ids: Record<string, string> = {};
  let alert: { id: string; eventId: string };
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));

  beforeAll(async () => {
    database = await createAlertsQueryDatabase('alerts_dead_deliveries');
    db = database.dataSource;
    const seed = new AlertsSeed(db);
    ids['account'] = await seed.account();
    ids['other'] = await seed.account();
    ids['hook'] = await seed.channel(ids['account']!, 'webhook', 'Ops hook');
    const otherHook = await seed.channel(ids['other']!, 'webhook', null);
    alert = await seed.alert(ids['account']!, null, at(0), 'mint_rate');
    const otherAlert = await seed.alert(ids['other']!, null, at(0));
    ids['older'] = await seed.delivery(ids['account']!, alert, ids['hook']!, 'dead', at(1), 'HTTP 500');
    const discord = await seed.channel(ids['account']!, 'discord', null);
    ids['newer'] = await seed.delivery(ids['account']!, alert, discord, 'dead', at(2), 'HTTP 404');
    ids['delivered'] = await seed.delivery(
      ids['account']!,
      await seed.alert(ids['account']!, null, at(3)),
      ids['hook']!,
      'delivered',
      at(3),
    );
    await seed.delivery(ids['other']!, otherAlert, otherHook, 'dead', at(4));
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("lists the account's dead deliveries, last changed first, with their channel and alert", async () => {
    const dead = await deadDeliveriesOf(db, ids['account']!, 10);
    expect(dead.map((d) => d.id)).toEqual([ids['newer'], ids['older']]);
    expect(dead[1]).toEqual({
      id: ids['older'],
      alert_id: alert.id,
      event_id: alert.eventId,
      channel_id: ids['hook'],
      channel_kind: 'webhook',
      channel_label: 'Ops hook',
      status: 'dead',
      attempts: 3,
      last_error: 'HTTP 500',
      next_attempt_at: null,
      delivered_at: null,
      updated_at: at(1),
      alert_kind: 'mint_rate',
      wallet: null,
      occurred_at: at(0),
    });
    await expect(deadDeliveriesOf(db, ids['account']!, 1)).resolves.toEqual([
      expect.objectContaining({ id: ids['newer'], channel_kind: 'discord', channel_label: null }),
    ]);
  });

  it('reads one delivery by id whatever its status, or nothing', async () => {
    await expect(deliveryWithAlert(db, ids['delivered']!)).resolves.toEqual(
      expect.objectContaining({ id: ids['delivered'], status: 'delivered', alert_kind: 'position_opened' }),
    );
    await expect(deliveryWithAlert(db, '00000000-0000-4000-8000-000000000000')).resolves.toBeUndefined();
  });
});
