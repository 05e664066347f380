import { ALERTS_LIMITS } from '@paper/alerts-delivery';
import { startTestStack, type TestStack, testRedisUrl } from '@paper/dev-stack';
import { Redis } from 'ioredis';
import { createHmac } from 'node:crypto';
import { type Call, client, DISCORD_URL, newAccount, type Receiver, sql, startReceiver } from './alerts-test-kit';

interface Channel {
  id: string;
  kind: string;
  target: string;
  label: string | null;
  status: string;
  disabledReason: string | null;
  signingSecret?: string;
}

interface TestResult {
  delivered: boolean;
  outcome: string;
  eventId: string;
  receiverStatus?: number;
  detail?: string;
}

describe('alerts-api channels', () => {
  let stack: TestStack;
  let call: Call;
  let token: string;
  let hook: Receiver;
  let other: Receiver;
  let discord: Receiver;
  let telegram: Receiver;

  beforeAll(async () => {
    [hook, other, discord, telegram] = await Promise.all([
      startReceiver(),
      startReceiver(),
      startReceiver(),
      startReceiver(),
    ]);
    stack = await startTestStack({
      apps: ['alerts-api'],
      env: {
        ALERTS_ALLOW_HOSTS: `${hook.hostPort},${other.hostPort}`,
        DISCORD_API_BASE: `${discord.url}/api`,
        TELEGRAM_API_BASE: telegram.url,
        TELEGRAM_BOT_TOKEN: '123456:test-token',
        TELEGRAM_BOT_USERNAME: 'paper_alerts_bot',
        // A plain receiver stands in for the Bot API here: the bot takes no updates from it.
        TELEGRAM_UPDATES_MODE: 'off',
        ALERTS_DISCORD_RATE: '1/60000',
      },
    });
    call = client(stack.alertsUrl);
  });

  beforeEach(async () => {
    ({ token } = await newAccount(call));
    for (const r of [hook, other, discord, telegram]) {
      r.received.length = 0;
      r.respond((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    }
  });

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([hook, other, discord, telegram].map((r) => r?.close()));
  });

  const create = (body: unknown) => call<Channel>('POST', '/api/channels', { token, body });

  it('creates a webhook channel: signing secret once, target masked everywhere', async () => {
    const res = await create({ kind: 'webhook', target: `${hook.url}/in/secret-path?key=abc`, label: 'ops' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'webhook',
      target: `http://${hook.hostPort}/****`,
      label: 'ops',
      status: 'active',
      disabledReason: null,
    });
    expect(res.body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const me = await call<{ channels: Channel[] }>('GET', '/api/me', { token });
    expect(me.body.channels).toEqual([
      expect.objectContaining({ id: res.body.id, target: `http://${hook.hostPort}/****` }),
    ]);
    expect(JSON.stringify(me.body)).not.toContain(res.body.signingSecret!);
    expect(JSON.stringify(me.body)).not.toContain('secret-path');
  });

  it('creates Discord channels only for Discord webhook URLs, hiding the token', async () => {
    const res = await create({ kind: 'discord', target: DISCORD_URL });
    expect(res.status).toBe(201);
    expect(res.body.target).toBe('https://discord.com/api/webhooks/123456789012345678/****');
    expect(res.body.signingSecret).toBeUndefined();
    for (const target of [
      'http://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123',
      'https://evil.example.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123',
      'https://discord.com/api/webhooks/abc/AbCdEfGhIjKlMnOpQrStUvWxYz0123',
      'https://discord.com/api/channels/123456789012345678',
      `${hook.url}/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123`,
    ]) {
      const bad = await create({ kind: 'discord', target });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({
        code: 'validation_failed',
        message: expect.stringContaining('Discord webhook URL'),
      });
    }
  });

  it('refuses other kinds, unknown keys and missing targets', async () => {
    expect((await create({ kind: 'telegram', target: '42' })).body).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('/api/telegram/link'),
    });
    expect((await create({ kind: 'sms', target: '42' })).status).toBe(400);
    expect((await create({ kind: 'webhook' })).body).toMatchObject({ code: 'validation_failed' });
    expect((await create({ kind: 'webhook', target: `${hook.url}/`, secret: 'x' })).body).toEqual({
      code: 'unknown_key',
      message: 'Unknown key "secret".',
    });
  });

  it.each([
    'http://127.0.0.1/hook',
    'http://127.1/hook',
    'http://2130706433/hook',
    'http://0x7f000001/hook',
    'http://0177.0.0.1/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:7f00:1]/hook',
    'http://10.0.0.5/hook',
    'http://172.16.0.1/hook',
    'http://172.31.255.254/hook',
    'http://192.168.0.10/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.1.1/',
    'http://0.0.0.0/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://224.0.0.1/',
    'http://localhost/hook',
    'http://metadata/computeMetadata/v1/',
    'ftp://93.184.216.34/file',
    'https://user:pw@93.184.216.34/hook',
    'not a url',
  ])('refuses the webhook target %s (SSRF guard)', async (target) => {
    const res = await create({ kind: 'webhook', target });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'target_not_allowed' });
  });

  it('allows exactly the allow-listed host and port, and public addresses', async () => {
    expect(
      (await create({ kind: 'webhook', target: `http://127.0.0.1:${hook.port + (hook.port === 65535 ? -1 : 1)}/` }))
        .body,
    ).toMatchObject({ code: 'target_not_allowed' });
    expect((await create({ kind: 'webhook', target: 'https://93.184.216.34/hooks/paper' })).status).toBe(201);
  });

  it('sends a signed test event to a webhook (same event id in body, header and answer)', async () => {
    const { body: channel } = await create({ kind: 'webhook', target: `${hook.url}/in` });
    const res = await call<TestResult>('POST', `/api/channels/${channel.id}/test`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ delivered: true, outcome: 'delivered', receiverStatus: 200 });
    const [req] = hook.received;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/in');
    const event = JSON.parse(req!.body) as { id: string; type: string; data: Record<string, unknown> };
    expect(event).toMatchObject({ id: res.body.eventId, type: 'test', data: { channelId: channel.id } });
    expect(req!.headers['x-service-alerts-event-id']).toBe(res.body.eventId);
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(req!.headers['x-service-alerts-signature'] as string);
    expect(match).not.toBeNull();
    expect(Math.abs(Number(match![1]) - Date.now() / 1000)).toBeLessThan(300);
    expect(match![2]).toBe(
      createHmac('sha256', channel.signingSecret!).update(`${match![1]}.${req!.body}`).digest('hex'),
    );
  });

  it('does not follow redirects from a webhook receiver', async () => {
    const { body: channel } = await create({ kind: 'webhook', target: `${hook.url}/moved` });
    hook.respond((_req, res) => res.writeHead(302, { location: `${other.url}/elsewhere` }).end());
    const res = await call<TestResult>('POST', `/api/channels/${channel.id}/test`, { token });
    expect(res.body).toMatchObject({ delivered: false, outcome: 'failed', receiverStatus: 302 });
    expect(other.received).toHaveLength(0);
  });

  it('checks the target again at send time: a stored target that is not public is not contacted', async () => {
    const stray = await startReceiver();
    const me = await call<{ account: { id: string } }>('GET', '/api/me', { token });
    const [row] = await sql<{ id: string }>(
      stack.database.url,
      `INSERT INTO alerts.channels (account_id, kind, target, secret) VALUES ($1, 'webhook', $2, 'whsec_x') RETURNING id`,
      [me.body.account.id, `${stray.url}/stored-before`],
    );
    const res = await call<TestResult>('POST', `/api/channels/${row!.id}/test`, { token });
    expect(res.body).toMatchObject({
      delivered: false,
      outcome: 'failed',
      detail: expect.stringContaining('loopback'),
    });
    expect(stray.received).toHaveLength(0);
    await stray.close();
  });

  it('allows 5 test messages per minute per channel, then 429 with Retry-After', async () => {
    const { body: first } = await create({ kind: 'webhook', target: `${hook.url}/a` });
    const { body: second } = await create({ kind: 'webhook', target: `${hook.url}/b` });
    for (let i = 0; i < 5; i += 1)
      expect((await call('POST', `/api/channels/${first.id}/test`, { token })).status).toBe(200);
    const limited = await call('POST', `/api/channels/${first.id}/test`, { token });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(hook.received.filter((r) => r.url === '/a')).toHaveLength(5);
    expect((await call('POST', `/api/channels/${second.id}/test`, { token })).status).toBe(200);
  });

  it('sends a Discord test message with wait=true and no mentions', async () => {
    const { body: channel } = await create({ kind: 'discord', target: DISCORD_URL });
    const res = await call<TestResult>('POST', `/api/channels/${channel.id}/test`, { token });
    expect(res.body).toMatchObject({ delivered: true, outcome: 'delivered' });
    const [req] = discord.received;
    expect(req!.url).toBe(`/api/webhooks/${DISCORD_URL.split('/webhooks/')[1]}?wait=true`);
    const body = JSON.parse(req!.body) as { content: string; embeds: unknown[]; allowed_mentions: unknown };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content.length).toBeGreaterThan(0);
    expect(body.embeds.length).toBeGreaterThan(0);
  });

  it('disables a channel whose receiver answers 410, tells the account, and PATCH active re-enables it', async () => {
    const { body: channel } = await create({ kind: 'webhook', target: `${hook.url}/gone` });
    const { body: healthy } = await create({ kind: 'webhook', target: `${other.url}/in` });
    hook.respond((_req, res) => res.writeHead(410).end());
    const res = await call<TestResult>('POST', `/api/channels/${channel.id}/test`, { token });
    expect(res.body).toMatchObject({ delivered: false, outcome: 'disable', receiverStatus: 410 });
    const me = await call<{ channels: Channel[] }>('GET', '/api/me', { token });
    expect(me.body.channels.find((c) => c.id === channel.id)).toMatchObject({
      status: 'disabled',
      disabledReason: expect.stringContaining('410'),
    });
    // The account is told on its other active channel, as when a delivery finds the receiver gone.
    const history = await call<{ alerts: { kind: string; details: Record<string, unknown>; deliveries: unknown[] }[] }>(
      'GET',
      '/api/alerts',
      { token },
    );
    expect(history.body.alerts).toEqual([
      expect.objectContaining({
        kind: 'channel_disabled',
        details: expect.objectContaining({ channelId: channel.id, reason: expect.stringContaining('410') }),
        deliveries: [expect.objectContaining({ channelId: healthy.id })],
      }),
    ]);
    const again = await call<Channel>('PATCH', `/api/channels/${channel.id}`, { token, body: { status: 'active' } });
    expect(again.body).toMatchObject({ status: 'active', disabledReason: null });
  });

  it('pauses, resumes and deletes a channel', async () => {
    const { body: channel } = await create({ kind: 'webhook', target: `${hook.url}/p` });
    expect(
      (await call<Channel>('PATCH', `/api/channels/${channel.id}`, { token, body: { status: 'paused' } })).body.status,
    ).toBe('paused');
    expect(
      (await call<Channel>('PATCH', `/api/channels/${channel.id}`, { token, body: { status: 'active' } })).body.status,
    ).toBe('active');
    expect(
      (await call('PATCH', `/api/channels/${channel.id}`, { token, body: { status: 'disabled' } })).body,
    ).toMatchObject({ code: 'validation_failed' });
    expect(
      (await call('PATCH', `/api/channels/${channel.id}`, { token, body: { status: 'paused', kind: 'x' } })).body,
    ).toMatchObject({ code: 'unknown_key' });
    expect((await call('DELETE', `/api/channels/${channel.id}`, { token })).status).toBe(204);
    expect((await call('PATCH', `/api/channels/${channel.id}`, { token, body: { status: 'paused' } })).status).toBe(
      404,
    );
    expect((await call('POST', `/api/channels/${channel.id}/test`, { token })).status).toBe(404);
    expect((await call('DELETE', `/api/channels/${channel.id}`, { token })).status).toBe(404);
  });

  it('mints single-use Telegram link codes valid 15 minutes with a deep link', async () => {
    const before = Date.now();
    const res = await call<{ code: string; deepLink: string; expiresAt: string; botUsername: string }>(
      'POST',
      '/api/telegram/link',
      { token },
    );
    expect(res.status).toBe(201);
    expect(res.body.code).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(res.body.deepLink).toBe(`https://t.me/paper_alerts_bot?start=${res.body.code}`);
    const expires = Date.parse(res.body.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(15 * 60_000 + 5000);
    const rows = await sql<{ used_at: Date | null }>(
      stack.database.url,
      'SELECT used_at FROM alerts.telegram_link_codes WHERE code = $1',
      [res.body.code],
    );
    expect(rows).toEqual([{ used_at: null }]);
    const second = await call<{ code: string }>('POST', '/api/telegram/link', { token });
    expect(second.body.code).not.toBe(res.body.code);
  });

  it('sends a Telegram test message to a linked chat', async () => {
    const account = await call<{ account: { id: string } }>('GET', '/api/me', { token });
    const [row] = await sql<{ id: string }>(
      stack.database.url,
      `INSERT INTO alerts.channels (account_id, kind, target, label) VALUES ($1, 'telegram', '987654321', 'phone') RETURNING id`,
      [account.body.account.id],
    );
    const res = await call<TestResult>('POST', `/api/channels/${row!.id}/test`, { token });
    expect(res.body).toMatchObject({ delivered: true });
    expect(telegram.received[0]!.url).toBe('/bot123456:test-token/sendMessage');
    expect(JSON.parse(telegram.received[0]!.body)).toMatchObject({ chat_id: '987654321', parse_mode: 'HTML' });
    const me = await call<{ channels: Channel[] }>('GET', '/api/me', { token });
    expect(me.body.channels.find((c) => c.id === row!.id)).toMatchObject({ kind: 'telegram', target: 'chat ****4321' });
  });

  it('enforces the shared per-account channel limit (409 limit_reached), Telegram links included', async () => {
    const limit = ALERTS_LIMITS.channelsPerAccount;
    for (let i = 0; i < limit; i += 1)
      expect((await create({ kind: 'discord', target: DISCORD_URL })).status).toBe(201);
    const over = await create({ kind: 'webhook', target: `${hook.url}/x` });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({
      code: 'limit_reached',
      message: expect.stringContaining(`at most ${limit} channels`),
    });
    expect((await call('POST', '/api/telegram/link', { token })).body).toMatchObject({ code: 'limit_reached' });
    expect((await call('GET', '/api/status')).body).toMatchObject({
      limits: { channelsPerAccount: limit },
      channels: { telegram: true },
    });
  });

  it('refuses test messages to paused and disabled channels with 409 conflict, sending nothing', async () => {
    const { body: channel } = await create({ kind: 'webhook', target: `${hook.url}/quiet` });
    await call('PATCH', `/api/channels/${channel.id}`, { token, body: { status: 'paused' } });
    const paused = await call('POST', `/api/channels/${channel.id}/test`, { token });
    expect(paused.status).toBe(409);
    expect(paused.body).toMatchObject({ code: 'conflict', message: expect.stringContaining('The channel is paused') });
    await sql(
      stack.database.url,
      `UPDATE alerts.channels SET status = 'disabled', disabled_reason = 'receiver answered 410 Gone' WHERE id = $1`,
      [channel.id],
    );
    const disabled = await call('POST', `/api/channels/${channel.id}/test`, { token });
    expect(disabled.status).toBe(409);
    expect(disabled.body).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('disabled (receiver answered 410 Gone)'),
    });
    expect(hook.received).toHaveLength(0);
    await call('PATCH', `/api/channels/${channel.id}`, { token, body: { status: 'active' } });
    expect((await call<TestResult>('POST', `/api/channels/${channel.id}/test`, { token })).body).toMatchObject({
      delivered: true,
    });
  });

  it('takes test messages from the same per-destination rate-limit bucket as alert deliveries', async () => {
    const url = DISCORD_URL.replace('123456789012345678', '223456789012345678');
    const { body: first } = await create({ kind: 'discord', target: url });
    const { body: second } = await create({ kind: 'discord', target: url });
    expect((await call<TestResult>('POST', `/api/channels/${first.id}/test`, { token })).body).toMatchObject({
      delivered: true,
    });
    const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
    try {
      const nextAt = Number(await redis.get(`${stack.redisPrefix}:alerts:bucket:discord:223456789012345678`));
      expect(nextAt - Date.now()).toBeGreaterThan(50_000);
    } finally {
      redis.disconnect();
    }
    const limited = await call('POST', `/api/channels/${second.id}/test`, { token });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('rate limit') });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(discord.received).toHaveLength(1);
  });
});
