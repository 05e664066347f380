import { startTestStack, type TestStack } from '@paper/dev-stack';
import { Redis } from 'ioredis';
import { type Call, client, newAccount, sql } from './alerts-test-kit';
import { insertAlert, insertChannel } from './alert-fixtures';

interface Page {
  alerts: {
    id: string;
    eventId: string;
    kind: string;
    deliveries: { id: string; channelId: string; channelKind: string; status: string }[];
  }[];
  nextBefore: string | null;
}

describe('alerts-api alert history and dead letters', () => {
  let stack: TestStack;
  let call: Call;
  let redis: Redis;
  let account: { id: string; token: string };
  let channels: string[];
  const inserted: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['alerts-api'] });
    call = client(stack.alertsUrl);
    redis = new Redis('redis://127.0.0.1:6379');
    account = await newAccount(call);
    channels = [
      await insertChannel(stack.database.url, account.id, 'webhook'),
      await insertChannel(stack.database.url, account.id, 'discord'),
    ];
    for (let i = 0; i < 25; i += 1) {
      const alert = await insertAlert(stack.database.url, account.id, channels, {
        secondsAgo: 100 - i,
        status: i === 24 ? 'queued' : 'delivered',
      });
      inserted.unshift(alert.alertId);
    }
  });

  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
  });

  it('lists alerts newest first with per-channel delivery status (default 20 per page)', async () => {
    const res = await call<Page>('GET', '/api/alerts', { token: account.token });
    expect(res.status).toBe(200);
    expect(res.body.alerts.map((a) => a.id)).toEqual(inserted.slice(0, 20));
    expect(res.body.nextBefore).toBe(inserted[19]);
    expect(res.body.alerts[0]!.deliveries).toEqual([
      expect.objectContaining({ channelId: channels[0], channelKind: 'webhook', status: 'queued' }),
      expect.objectContaining({ channelId: channels[1], channelKind: 'discord', status: 'queued' }),
    ]);
    expect(res.body.alerts[1]!.deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered']);
  });

  it('pages with limit and before until the last page', async () => {
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const query: string = `/api/alerts?limit=7${before ? `&before=${before}` : ''}`;
      const page: Page = (await call<Page>('GET', query, { token: account.token })).body;
      expect(page.alerts.length).toBeLessThanOrEqual(7);
      seen.push(...page.alerts.map((a) => a.id));
      before = page.nextBefore;
    } while (before);
    expect(seen).toEqual(inserted);
  });

  it.each([
    ['1', 1],
    ['100', 25],
  ])('accepts limit=%s', async (limit, count) => {
    const res = await call<Page>('GET', `/api/alerts?limit=${limit}`, { token: account.token });
    expect(res.status).toBe(200);
    expect(res.body.alerts).toHaveLength(count);
  });

  it.each(['0', '101', '-1', '1.5', 'ten', ''])('refuses limit=%s', async (limit) => {
    const res = await call('GET', `/api/alerts?limit=${limit}`, { token: account.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('limit') });
  });

  it('refuses a before that is not one of the account’s alert ids, and unknown query keys', async () => {
    expect((await call('GET', '/api/alerts?before=yesterday', { token: account.token })).body).toMatchObject({
      code: 'validation_failed',
    });
    expect(
      (await call('GET', '/api/alerts?before=7d7e4a52-1111-4c3e-9a53-6f2f1f4b0c01', { token: account.token })).body,
    ).toMatchObject({ code: 'validation_failed' });
    expect((await call('GET', '/api/alerts?cursor=x', { token: account.token })).body).toEqual({
      code: 'unknown_key',
      message: 'Unknown key "cursor".',
    });
  });

  it('lists dead-lettered deliveries and re-queues one with the same event id', async () => {
    const dead = await insertAlert(stack.database.url, account.id, [channels[0]!], { status: 'dead' });
    const list = await call<{
      deliveries: { id: string; eventId: string; status: string; lastError: string; alert: { kind: string } }[];
    }>('GET', '/api/deliveries/dead', { token: account.token });
    expect(list.body.deliveries).toEqual([
      expect.objectContaining({
        id: dead.deliveryIds[0],
        eventId: dead.eventId,
        status: 'dead',
        lastError: 'receiver answered 500',
        alert: expect.objectContaining({ kind: 'liquidation_risk' }),
      }),
    ]);
    const retried = await call<{ id: string; status: string; eventId: string; attempts: number }>(
      'POST',
      `/api/deliveries/${dead.deliveryIds[0]}/retry`,
      { token: account.token },
    );
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({
      id: dead.deliveryIds[0],
      status: 'queued',
      eventId: dead.eventId,
      attempts: 0,
    });
    // The row is what the dispatchers read; the API also wakes them.
    const wake = await redis.hgetall(`${stack.redisPrefix}:bull:alerts-deliveries:deliveries-due`);
    expect(wake['name']).toBe('deliveries-due');
    expect(JSON.parse(wake['data']!)).toEqual({});
    const [row] = await sql<{ status: string; event_id: string }>(
      stack.database.url,
      'SELECT status, event_id FROM alerts.deliveries WHERE id = $1',
      [dead.deliveryIds[0]],
    );
    expect(row).toEqual({ status: 'queued', event_id: dead.eventId });
    expect(
      (await call<{ deliveries: unknown[] }>('GET', '/api/deliveries/dead', { token: account.token })).body.deliveries,
    ).toEqual([]);
    const again = await call('POST', `/api/deliveries/${dead.deliveryIds[0]}/retry`, { token: account.token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict' });
  });

  it('answers 404 for unknown delivery ids and bounds the dead-letter page size', async () => {
    expect(
      (await call('POST', '/api/deliveries/7d7e4a52-1111-4c3e-9a53-6f2f1f4b0c01/retry', { token: account.token }))
        .status,
    ).toBe(404);
    expect((await call('POST', '/api/deliveries/nope/retry', { token: account.token })).status).toBe(404);
    expect((await call('GET', '/api/deliveries/dead?limit=101', { token: account.token })).status).toBe(400);
    expect((await call('GET', '/api/deliveries/dead?limit=100', { token: account.token })).status).toBe(200);
  });

  it('reports the last scheduled poll in /api/status', async () => {
    expect((await call('GET', '/api/status')).body['lastScheduledPoll']).toBeNull();
    await sql(
      stack.database.url,
      `INSERT INTO alerts.poll_status (name, last_started_at, last_finished_at, last_ok) VALUES
         ('protocol', '2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z', true),
         ('wallets', '2026-01-01T00:00:05Z', NULL, NULL)`,
    );
    const status = await call('GET', '/api/status');
    expect(status.body['lastScheduledPoll']).toEqual({
      name: 'wallets',
      startedAt: '2026-01-01T00:00:05.000Z',
      finishedAt: null,
      ok: null,
    });
  });

  it('DELETE /api/me removes everything under the account, its pending deliveries included', async () => {
    const doomed = await newAccount(call);
    const channel = await insertChannel(stack.database.url, doomed.id);
    await call('POST', '/api/watches', {
      token: doomed.token,
      body: { address: '0x52908400098527886E0F7030069857D2E4169EE7' },
    });
    await call('PUT', '/api/protocol-rules', { token: doomed.token, body: { mintRate: { enabled: true } } });
    await call('POST', '/api/telegram/link', { token: doomed.token });
    const dead = await insertAlert(stack.database.url, doomed.id, [channel], { status: 'dead' });
    expect((await call('POST', `/api/deliveries/${dead.deliveryIds[0]}/retry`, { token: doomed.token })).status).toBe(
      202,
    );
    const [pending] = await sql<{ status: string }>(
      stack.database.url,
      'SELECT status FROM alerts.deliveries WHERE id = $1',
      [dead.deliveryIds[0]],
    );
    expect(pending).toEqual({ status: 'queued' });

    expect((await call('DELETE', '/api/me', { token: doomed.token })).status).toBe(204);
    for (const table of [
      'accounts',
      'watches',
      'channels',
      'protocol_rules',
      'alerts',
      'deliveries',
      'telegram_link_codes',
    ]) {
      const column = table === 'accounts' ? 'id' : 'account_id';
      const [count] = await sql<{ n: number }>(
        stack.database.url,
        `SELECT count(*)::int AS n FROM alerts.${table} WHERE ${column} = $1`,
        [doomed.id],
      );
      expect({ table, n: count!.n }).toEqual({ table, n: 0 });
    }
    expect((await call('GET', '/api/me', { token: doomed.token })).status).toBe(401);
    expect((await call('GET', '/api/alerts', { token: account.token })).status).toBe(200);
  });
});
