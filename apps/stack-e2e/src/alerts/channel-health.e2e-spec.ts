import { startTestStack, startWebhookReceiver, type TestStack, type WebhookReceiver } from '@paper/dev-stack';
import { type Call, client, eventually, newAccount, sql } from './alerts-test-kit';
import { type AlertFixture, insertAlert } from './alert-fixtures';

interface Health {
  delivered: number;
  failed: number;
  pending: number;
  dead: number;
  lastError: { message: string; at: string } | null;
  latency: { p50Ms: number; p99Ms: number } | null;
}

describe('endpoint health and recovery (alerts-api and alerts-dispatcher)', () => {
  let stack: TestStack;
  let call: Call;
  let account: { id: string; token: string };
  let receiver: WebhookReceiver;
  let channelId: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    stack = await startTestStack({
      apps: ['alerts-api', 'alerts-dispatcher'],
      env: { ALERTS_ALLOW_HOSTS: receiver.hostPort, ALERTS_RETRY_SCHEDULE_MS: '100', ALERTS_RETRY_JITTER_PCT: '0' },
    });
    call = client(stack.alertsUrl);
    account = await newAccount(call);
    const created = await call<{ id: string; signingSecret: string }>('POST', '/api/channels', {
      token: account.token,
      body: { kind: 'webhook', target: `${receiver.url}/in` },
    });
    channelId = created.body.id;
    receiver.setSecret(created.body.signingSecret);
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const statuses = async (alerts: AlertFixture[]) =>
    (
      await sql<{ status: string }>(
        stack.database.url,
        `SELECT status FROM alerts.deliveries WHERE id = ANY($1::uuid[]) ORDER BY array_position($1::uuid[], id)`,
        [alerts.map((a) => a.deliveryIds[0])],
      )
    ).map((r) => r.status);
  const queue = (options: { secondsAgo?: number } = {}) =>
    insertAlert(stack.database.url, account.id, [channelId], { ...options, status: 'queued' });
  const health = async () =>
    (await call<{ health: Health }>('GET', `/api/channels/${channelId}`, { token: account.token })).body.health;

  it('shows the outage, and recover re-delivers exactly the failed deliveries since the given time, once', async () => {
    const before = await queue();
    await eventually(async () => (await statuses([before]))[0] === 'delivered', 15000, 'first delivery');

    receiver.failAlways(503);
    const older = await queue({ secondsAgo: 600 });
    const since = new Date(Date.now() - 300_000).toISOString();
    const outage = [await queue(), await queue()];
    const failed = [older, ...outage];
    await eventually(async () => (await statuses(failed)).every((s) => s === 'dead'), 20000, 'dead letters');

    const during = await health();
    expect(during).toMatchObject({ delivered: 1, failed: 0, pending: 0, dead: 3 });
    expect(during.lastError!.message).toContain('503');
    expect(during.latency!.p99Ms).toBeGreaterThanOrEqual(during.latency!.p50Ms);

    receiver.failAlways(null);
    const recovered = await call('POST', `/api/channels/${channelId}/recover`, {
      token: account.token,
      body: { since },
    });
    expect(recovered).toMatchObject({ status: 200, body: { requeued: 2, more: false } });
    await eventually(async () => (await statuses(outage)).every((s) => s === 'delivered'), 15000, 'recovered');
    expect(await statuses([older])).toEqual(['dead']);
    const accepted = receiver.accepted().map((r) => r.eventId);
    expect(accepted).toHaveLength(3);
    expect(new Set(accepted)).toEqual(new Set([before, ...outage].map((a) => a.eventId)));

    const again = await call('POST', `/api/channels/${channelId}/recover`, { token: account.token, body: { since } });
    expect(again.body).toEqual({ requeued: 0, more: false });
    expect(await health()).toMatchObject({ delivered: 3, dead: 1, pending: 0 });
  });

  it('alert deliveries during a secret rotation verify with the old and with the new secret', async () => {
    const created = await call<{ id: string; signingSecret: string }>('POST', '/api/channels', {
      token: account.token,
      body: { kind: 'webhook', target: `${receiver.url}/rotating` },
    });
    const id = created.body.id;
    const rotated = await call<{ signingSecret: string }>('POST', `/api/channels/${id}/rotate-secret`, {
      token: account.token,
    });
    const from = receiver.received.length;
    const deliver = async (secret: string) => {
      receiver.setSecret(secret);
      const alert = await insertAlert(stack.database.url, account.id, [id], { status: 'queued' });
      await eventually(async () => (await statuses([alert]))[0] === 'delivered', 15000, 'delivered');
    };
    await deliver(created.body.signingSecret);
    await deliver(rotated.body.signingSecret);
    const seen = receiver.received.slice(from);
    expect(seen.map((r) => [r.status, r.verifiers])).toEqual([
      [200, { standardwebhooks: true, svix: true, stripe: true }],
      [200, { standardwebhooks: true, svix: true, stripe: true }],
    ]);
    expect(seen.map((r) => (r.headers['webhook-signature'] as string).split(' ').length)).toEqual([2, 2]);
  });

  it('refuses a malformed, future or missing since, and unknown channels', async () => {
    const recover = (body: unknown, id = channelId) =>
      call('POST', `/api/channels/${id}/recover`, { token: account.token, body });
    for (const body of [{ since: 'yesterday' }, { since: new Date(Date.now() + 3600_000).toISOString() }, {}]) {
      expect(await recover(body)).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    }
    expect((await recover({ since: new Date().toISOString(), extra: 1 })).body).toMatchObject({ code: 'unknown_key' });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await recover({ since: new Date().toISOString() }, unknown)).toMatchObject({ status: 404 });
    expect(await call('GET', `/api/channels/${unknown}`, { token: account.token })).toMatchObject({ status: 404 });
  });
});
