import { createSigningSecret } from '@paper/alerts-delivery';
import {
  type DiscordFake,
  startDiscordFake,
  startTelegramFake,
  startWebhookReceiver,
  type TelegramFake,
  type WebhookReceiver,
} from '@paper/dev-stack';
import { DispatcherTestKit, until } from '../testing/dispatcher-test-kit';

const SECRET = createSigningSecret();

describe('delivery processor (PostgreSQL + Redis + BullMQ, local receivers)', () => {
  let kit: DispatcherTestKit;
  let receiver: WebhookReceiver;
  let discord: DiscordFake;
  let telegram: TelegramFake;
  let account: string;

  beforeAll(async () => {
    [receiver, discord, telegram] = await Promise.all([
      startWebhookReceiver(),
      startDiscordFake(),
      startTelegramFake(),
    ]);
    receiver.setSecret(SECRET);
    kit = await DispatcherTestKit.start({
      ALERTS_ALLOW_HOSTS: receiver.hostPort,
      DISCORD_API_BASE: discord.apiBase,
      TELEGRAM_API_BASE: telegram.apiBase,
      TELEGRAM_BOT_TOKEN: telegram.token,
      ALERTS_RETRY_SCHEDULE_MS: '200,200,200',
      ALERTS_RETRY_JITTER_PCT: '0',
      ALERTS_DELIVERY_POLL_MS: '300',
      ALERTS_DELIVERY_LOCK_MS: '2000',
    });
    await kit.processor.onApplicationBootstrap();
    account = await kit.account();
  });

  afterAll(async () => {
    await kit?.stop();
    await Promise.all([receiver?.close(), discord?.close(), telegram?.close()]);
  });

  const webhook = () => kit.channel(account, 'webhook', `${receiver.url}/hook`, SECRET);
  const settled = (id: string) =>
    until(
      async () => ((await kit.row(id)).status.match(/^(delivered|dead)$/) ? kit.row(id) : undefined),
      `delivery ${id} to settle`,
    );

  it('delivers a signed webhook once, and a later wake-up sends nothing more', async () => {
    const d = await kit.delivery(account, await webhook());
    await kit.wakeUp();
    expect(await settled(d.id)).toMatchObject({ status: 'delivered', attempts: 1, last_error: null });
    // A later delivery settles only after a claim made after the second wake-up: that claim left the first one alone.
    const next = await kit.delivery(account, await webhook());
    await kit.wakeUp();
    expect(await settled(next.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(receiver.received.filter((r) => r.eventId === d.eventId)).toHaveLength(1);
    expect(receiver.received.find((r) => r.eventId === d.eventId)).toMatchObject({
      valid: true,
      headerEventId: d.eventId,
    });
  });

  it('dead-letters other 4xx answers without retrying, and leaves the channel active', async () => {
    const channel = await kit.channel(account, 'webhook', `${receiver.url}/hook`, 'whsec_wrong');
    const d = await kit.delivery(account, channel);
    await kit.wakeUp();
    expect(await settled(d.id)).toMatchObject({
      status: 'dead',
      attempts: 1,
      last_error: expect.stringContaining('400'),
    });
    expect(await kit.channelRow(channel)).toMatchObject({ status: 'active' });
  });

  it('honours Retry-After on 429 without counting it as an attempt, and keeps the event id', async () => {
    const d = await kit.delivery(account, await webhook());
    receiver.failNext(1, 429, 1);
    await kit.wakeUp();
    expect(await settled(d.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    const [first, second] = receiver.received.filter((r) => r.eventId === d.eventId);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('gives up after the schedule and dead-letters', async () => {
    const d = await kit.delivery(account, await webhook());
    receiver.failAlways(503);
    try {
      await kit.wakeUp();
      expect(await settled(d.id)).toMatchObject({
        status: 'dead',
        attempts: 4,
        last_error: expect.stringMatching(/^gave up after 4 attempts: receiver answered 503/),
      });
    } finally {
      receiver.failAlways(null);
    }
  });

  it('disables a webhook channel that answers 410, saying why, and tells the account on its other channels', async () => {
    const channel = await webhook();
    const d = await kit.delivery(account, channel);
    receiver.failNext(1, 410);
    await kit.wakeUp();
    expect(await settled(d.id)).toMatchObject({
      status: 'dead',
      last_error: expect.stringContaining('channel disabled'),
    });
    expect(await kit.channelRow(channel)).toMatchObject({
      status: 'disabled',
      disabled_reason: expect.stringContaining('410'),
    });
    const notices = await kit.db.query<{ reason: string; channels: string[] }[]>(
      `SELECT a.details->>'reason' AS reason, array_agg(d.channel_id::text) AS channels
         FROM alerts.alerts a JOIN alerts.deliveries d ON d.alert_id = a.id
        WHERE a.account_id = $1 AND a.kind = 'channel_disabled' AND a.details->>'channelId' = $2
        GROUP BY a.id`,
      [account, channel],
    );
    const active = await kit.db.query<{ id: string }[]>(
      `SELECT id::text FROM alerts.channels WHERE account_id = $1 AND status = 'active'`,
      [account],
    );
    expect(active.length).toBeGreaterThan(0);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.reason).toContain('410');
    expect(notices[0]!.channels.sort()).toEqual(active.map((c) => c.id).sort());
  });

  it('disables a Discord channel whose webhook is gone, and a Telegram chat that blocked the bot', async () => {
    const hook = discord.createWebhook();
    discord.deleteWebhook(hook.id);
    const dc = await kit.channel(account, 'discord', hook.url);
    telegram.block(4242);
    const tg = await kit.channel(account, 'telegram', '4242');
    const [d1, d2] = [await kit.delivery(account, dc), await kit.delivery(account, tg)];
    await kit.wakeUp();
    await Promise.all([settled(d1.id), settled(d2.id)]);
    expect(await kit.channelRow(dc)).toMatchObject({
      status: 'disabled',
      disabled_reason: expect.stringContaining('404'),
    });
    expect(await kit.channelRow(tg)).toMatchObject({
      status: 'disabled',
      disabled_reason: expect.stringContaining('bot was blocked'),
    });
  });

  it('sends nothing to a paused channel', async () => {
    const channel = await kit.channel(account, 'webhook', `${receiver.url}/paused`, SECRET, 'paused');
    const d = await kit.delivery(account, channel);
    await kit.wakeUp();
    expect(await settled(d.id)).toMatchObject({
      status: 'dead',
      attempts: 0,
      last_error: 'not sent: the channel is paused',
    });
    expect(receiver.received.filter((r) => r.eventId === d.eventId)).toEqual([]);
  });

  it("keeps to Discord's 5 requests per 2 seconds per webhook (no 429)", async () => {
    const hook = discord.createWebhook();
    const channel = await kit.channel(account, 'discord', hook.url);
    const ds = await Promise.all(Array.from({ length: 7 }, () => kit.delivery(account, channel)));
    await kit.wakeUp();
    await Promise.all(ds.map((d) => settled(d.id)));
    const messages = discord.messages.filter((m) => m.webhookId === hook.id);
    expect(messages.map((m) => m.status)).toEqual(Array(7).fill(200));
    expect(messages[6]!.at - messages[0]!.at).toBeGreaterThanOrEqual(1500);
    expect(messages.every((m) => m.wait && (m.body.content?.length ?? 0) <= 2000)).toBe(true);
  });

  it('sends a queued delivery that has no job: the dispatcher reads due rows, jobs only wake it', async () => {
    const d = await kit.delivery(account, await webhook(), 'position_closed', 5000);
    expect(await settled(d.id)).toMatchObject({ status: 'delivered' });
    expect(receiver.accepted().filter((r) => r.eventId === d.eventId)).toHaveLength(1);
  });

  it('takes over a delivery whose dispatcher died mid-attempt once its lease lapsed, sending it once', async () => {
    const d = await kit.delivery(account, await webhook());
    await kit.db.query(
      `UPDATE alerts.deliveries SET status = 'sending', attempts = 1, updated_at = now() - interval '10 seconds' WHERE id = $1`,
      [d.id],
    );
    expect(await settled(d.id)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(receiver.accepted().filter((r) => r.eventId === d.eventId)).toHaveLength(1);
  });

  it('records without sending again a delivery its dead dispatcher had sent but not recorded (the sent mark)', async () => {
    const d = await kit.delivery(account, await webhook());
    await kit.redis.set(`${kit.config.REDIS_PREFIX}:alerts:sent:${d.id}`, '1', 'EX', 60);
    await kit.db.query(
      `UPDATE alerts.deliveries SET status = 'sending', attempts = 1, updated_at = now() - interval '10 seconds' WHERE id = $1`,
      [d.id],
    );
    expect(await settled(d.id)).toMatchObject({ status: 'delivered' });
    expect(receiver.received.filter((r) => r.eventId === d.eventId)).toEqual([]);
  });

  it('leaves alone a delivery another dispatcher is sending (its lease is fresh)', async () => {
    const d = await kit.delivery(account, await webhook());
    await kit.db.query(
      `UPDATE alerts.deliveries SET status = 'sending', attempts = 1, updated_at = now() + interval '1 hour' WHERE id = $1`,
      [d.id],
    );
    const later = await kit.delivery(account, await webhook());
    expect(await settled(later.id)).toMatchObject({ status: 'delivered' });
    expect(await kit.row(d.id)).toMatchObject({ status: 'sending', attempts: 1 });
    expect(receiver.received.filter((r) => r.eventId === d.eventId)).toEqual([]);
  });
});
