import { startTestStack, startWebhookReceiver, type TestStack, type WebhookReceiver } from '@paper/dev-stack';
import { type Call, client, eventually, newAccount, type Receiver, sql, startReceiver } from './alerts-test-kit';
import { insertAlert } from './alert-fixtures';

interface ChannelRow {
  status: string;
  disabled_reason: string | null;
}

/** How the dispatcher treats a webhook receiver's answers, end to end (alerts-api, alerts-dispatcher, real receivers). */
describe('webhook receiver answers', () => {
  let stack: TestStack;
  let call: Call;
  let account: { id: string; token: string };
  let receiver: WebhookReceiver;
  let watcher: WebhookReceiver;
  let stray: Receiver;

  beforeAll(async () => {
    [receiver, watcher, stray] = await Promise.all([startWebhookReceiver(), startWebhookReceiver(), startReceiver()]);
    stack = await startTestStack({
      apps: ['alerts-api', 'alerts-dispatcher'],
      env: {
        // The stray receiver is on loopback and not allow-listed: a private address to the SSRF guard.
        ALERTS_ALLOW_HOSTS: `${receiver.hostPort},${watcher.hostPort}`,
        ALERTS_RETRY_SCHEDULE_MS: '50,50',
        ALERTS_RETRY_JITTER_PCT: '0',
        ALERTS_DISABLE_AFTER_FAILING_MS: '1',
        ALERTS_DISABLE_MIN_FAILED_ATTEMPTS: '3',
      },
    });
    call = client(stack.alertsUrl);
  });

  beforeEach(async () => {
    account = await newAccount(call);
    receiver.received.length = 0;
    watcher.received.length = 0;
    receiver.failAlways(null);
  });

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([receiver, watcher, stray].map((r) => r?.close()));
  });

  async function webhook(target: WebhookReceiver, path = '/in'): Promise<string> {
    const res = await call<{ id: string; signingSecret: string }>('POST', '/api/channels', {
      token: account.token,
      body: { kind: 'webhook', target: `${target.url}${path}` },
    });
    target.setSecret(res.body.signingSecret);
    return res.body.id;
  }
  const channel = async (id: string) =>
    (
      await sql<ChannelRow>(stack.database.url, `SELECT status, disabled_reason FROM alerts.channels WHERE id = $1`, [
        id,
      ])
    )[0]!;
  const delivery = async (id: string) =>
    (
      await sql<{ status: string; last_error: string | null; attempts: number }>(
        stack.database.url,
        `SELECT status, last_error, attempts FROM alerts.deliveries WHERE id = $1`,
        [id],
      )
    )[0]!;

  it('410 Gone disables the channel at once and tells the account on its other channels', async () => {
    const id = await webhook(receiver);
    const healthy = await webhook(watcher);
    receiver.failAlways(410);
    const alert = await insertAlert(stack.database.url, account.id, [id], { status: 'queued' });
    await eventually(async () => (await channel(id)).status === 'disabled', 15000, 'channel disabled');
    expect((await channel(id)).disabled_reason).toContain('410');
    expect(await delivery(alert.deliveryIds[0]!)).toMatchObject({ status: 'dead' });
    expect(receiver.received).toHaveLength(1);
    await eventually(async () => watcher.accepted().length === 1, 15000, 'the notice on the other channel');
    const notice = watcher.accepted()[0]!.body as {
      type: string;
      details: { channelId: string; reason: string };
      data: { title: string };
    };
    expect(notice.type).toBe('alert.channel_disabled');
    expect(notice.data.title).toContain('Channel disabled');
    expect(notice.details).toMatchObject({ channelId: id, reason: expect.stringContaining('410 Gone') });
    expect((await channel(healthy)).status).toBe('active');
  });

  it("honours a receiver's Retry-After before the next attempt", async () => {
    const id = await webhook(receiver);
    receiver.failNext(1, 503, 2);
    const alert = await insertAlert(stack.database.url, account.id, [id], { status: 'queued' });
    await eventually(async () => (await delivery(alert.deliveryIds[0]!)).status === 'delivered', 20000, 'delivered');
    const [first, second] = receiver.received;
    expect([first!.status, second!.status]).toEqual([503, 200]);
    // The schedule alone would retry after 50 ms.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1900);
    expect(second!.webhookId).toBe(first!.webhookId);
  });

  it('refuses a redirect to a private address: the stray target is never contacted', async () => {
    const id = await webhook(receiver, '/moved');
    stray.received.length = 0;
    receiver.redirectTo(`${stray.url}/internal`);
    try {
      const alert = await insertAlert(stack.database.url, account.id, [id], { status: 'queued' });
      await eventually(async () => (await delivery(alert.deliveryIds[0]!)).status === 'dead', 15000, 'dead letter');
      expect((await delivery(alert.deliveryIds[0]!)).last_error).toContain('302 (redirects are not followed)');
      expect(receiver.received.map((r) => r.status)).toEqual([302]);
      expect(stray.received).toHaveLength(0);
    } finally {
      receiver.redirectTo(null);
    }
  });

  it('disables a channel after sustained failure and tells the account on its other channels', async () => {
    const failing = await webhook(receiver);
    const healthy = await webhook(watcher);
    receiver.failAlways(503);
    // Each fixture delivery is on its 2nd attempt already: two alerts fail 4 attempts in all.
    await insertAlert(stack.database.url, account.id, [failing], { status: 'queued' });
    await insertAlert(stack.database.url, account.id, [failing], { status: 'queued' });
    await eventually(async () => (await channel(failing)).status === 'disabled', 15000, 'disabled after 3 failures');
    expect((await channel(failing)).disabled_reason).toMatch(/^no delivery succeeded since \S+Z \(3 failed attempts\)/);
    await eventually(async () => watcher.accepted().length === 1, 15000, 'the notice on the other channel');
    const notice = watcher.accepted()[0]!.body as { type: string; data: { title: string } };
    expect(notice.type).toBe('alert.channel_disabled');
    expect(notice.data.title).toContain('Channel disabled');
    const got = await call<{ status: string; disabledReason: string }>('GET', `/api/channels/${failing}`, {
      token: account.token,
    });
    expect(got.body).toMatchObject({ status: 'disabled', disabledReason: expect.stringContaining('no delivery') });
    expect((await channel(healthy)).status).toBe('active');
  });
});
