import { createSigningSecret } from '@paper/alerts-delivery';
import { startWebhookReceiver, type WebhookReceiver } from '@paper/dev-stack';
import { DispatcherTestKit, until } from '../testing/dispatcher-test-kit';

const SECRET = createSigningSecret();

/** Rate-limited answers (429) against a retry schedule much longer than the receivers' Retry-After. */
describe('rate-limited deliveries (PostgreSQL + Redis + BullMQ, local receiver)', () => {
  let kit: DispatcherTestKit;
  let receiver: WebhookReceiver;
  let account: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.setSecret(SECRET);
    kit = await DispatcherTestKit.start({
      ALERTS_ALLOW_HOSTS: receiver.hostPort,
      ALERTS_RETRY_SCHEDULE_MS: '20000,20000',
      ALERTS_RETRY_JITTER_PCT: '0',
      ALERTS_RATE_LIMITED_MAX: '4',
      ALERTS_WEBHOOK_RATE: '1000/1000',
      TELEGRAM_UPDATES_MODE: 'off',
    });
    await kit.processor.onApplicationBootstrap();
    account = await kit.account();
  });

  afterAll(async () => {
    await kit?.stop();
    await receiver?.close();
  });

  const settled = (id: string) =>
    until(
      async () => ((await kit.row(id)).status.match(/^(delivered|dead)$/) ? kit.row(id) : undefined),
      `delivery ${id} to settle`,
      20000,
    );
  const rateLimitedCount = async (id: string) =>
    (
      (await kit.db.query(`SELECT rate_limited FROM alerts.deliveries WHERE id = $1`, [id])) as {
        rate_limited: number;
      }[]
    )[0]!.rate_limited;

  it('waits exactly Retry-After (plus a small jitter) and uses up no attempt, however often it is asked', async () => {
    const channel = await kit.channel(account, 'webhook', `${receiver.url}/limited`, SECRET);
    const d = await kit.delivery(account, channel);
    receiver.failNext(3, 429, 0.3);
    await kit.wakeUp();
    expect(await settled(d.id)).toMatchObject({ status: 'delivered', attempts: 1, last_error: null });
    expect(await rateLimitedCount(d.id)).toBe(3);
    const times = receiver.received.filter((r) => r.eventId === d.eventId).map((r) => r.at);
    expect(times).toHaveLength(4);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(290);
      expect(gap).toBeLessThan(2500);
    }
  });

  it('dead-letters a receiver that keeps answering 429 at the separate cap, saying why', async () => {
    const channel = await kit.channel(account, 'webhook', `${receiver.url}/always-limited`, SECRET);
    const d = await kit.delivery(account, channel);
    receiver.failNext(100, 429, 0.1);
    try {
      await kit.wakeUp();
      expect(await settled(d.id)).toMatchObject({
        status: 'dead',
        attempts: 1,
        last_error: expect.stringMatching(/^gave up after 4 rate-limited answers: receiver answered 429/),
      });
      expect(receiver.received.filter((r) => r.eventId === d.eventId)).toHaveLength(4);
    } finally {
      receiver.failNext(0);
    }
  });
});
