import { eventually, newAccount, sql } from '../alerts/alerts-test-kit';
import { callTool, connectTrader, setVenuePrice, type Trader } from '../tools/tool-test-kit';
import {
  accountWithChannels,
  alerts,
  btcAt,
  deliveredAlert,
  type DeliveryWorld,
  openPosition,
  startDeliveryWorld,
} from './alerts-delivery-kit';

const CHAT = 777_001;

describe('alert delivery end to end: poller and dispatcher', () => {
  let world: DeliveryWorld;
  let trader: Trader;
  let a: Awaited<ReturnType<typeof accountWithChannels>>;
  let b: { token: string };
  let positionId: string;
  let liquidatedEventId: string;

  const webhookBodies = (eventId: string) => world.receiver.received.filter((r) => r.eventId === eventId);
  const discordTexts = () =>
    world.discord.delivered(a.discordHook).map((m) => `${m.body.content} ${m.body.embeds?.[0]?.footer?.text ?? ''}`);
  const telegramTexts = () => world.telegram.delivered(CHAT).map((m) => m.text);

  beforeAll(async () => {
    world = await startDeliveryWorld();
    await btcAt(world, 100_000);
    trader = await connectTrader(world.stack, world.issuer, { fundUsd: 1000 });
    a = await accountWithChannels(world, CHAT);
    const watch = await world.call('POST', '/api/watches', {
      token: a.token,
      body: {
        address: trader.wallet,
        role: 'own',
        label: 'e2e *trader*',
        rules: {
          liquidation: { enabled: true, belowPct: 0.5 },
          opened: true,
          closed: true,
          liquidated: true,
          sessionKey: { enabled: false },
        },
      },
    });
    expect(watch.status).toBe(201);
    b = await newAccount(world.call);
    const flaky = await world.call<{ signingSecret: string }>('POST', '/api/channels', {
      token: b.token,
      body: { kind: 'webhook', target: `${world.flaky.url}/alerts` },
    });
    world.flaky.setSecret(flaky.body.signingSecret);
    await world.call('POST', '/api/watches', {
      token: b.token,
      body: {
        address: trader.wallet,
        rules: {
          liquidation: { enabled: false },
          opened: false,
          closed: false,
          liquidated: true,
          sessionKey: { enabled: false },
        },
      },
    });
    const watchId = (watch.body as { id: string }).id;
    await eventually(
      async () =>
        (
          await sql(
            world.stack.database.url,
            `SELECT 1 FROM alerts.rule_state WHERE watch_id = $1 AND rule = 'positions'`,
            [watchId],
          )
        ).length > 0,
      30000,
      'the watch to be seeded',
    );
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('links the Telegram chat with /start <code> and replies', () => {
    expect(telegramTexts().some((t) => t.startsWith('Linked.'))).toBe(true);
  });

  it('records the last scheduled poll for /api/status', async () => {
    const status = await world.call<{ lastScheduledPoll: { ok: boolean; finishedAt: string } }>('GET', '/api/status');
    expect(status.body.lastScheduledPoll).toMatchObject({ ok: true });
    expect(Date.now() - Date.parse(status.body.lastScheduledPoll.finishedAt)).toBeLessThan(10_000);
  });

  it('delivers a position opened through the tool API to every channel', async () => {
    ({ positionId } = await openPosition(world.stack.baseUrl, trader, {
      market: 'BTC',
      side: 'long',
      marginUsd: 100,
      leverage: 100,
    }));
    const opened = await deliveredAlert(world.call, a.token, 'position_opened');
    expect(opened).toMatchObject({
      wallet: trader.wallet,
      details: { positionId, market: 'BTC', side: 'long', leverage: 100 },
    });
    expect(opened.deliveries.map((d) => d.channelKind).sort()).toEqual(['discord', 'telegram', 'webhook']);
    const [hook] = webhookBodies(opened.eventId);
    expect(hook).toMatchObject({ valid: true, status: 200, headerEventId: opened.eventId });
    expect(hook!.body).toMatchObject({
      id: opened.eventId,
      type: 'alert.position_opened',
      kind: 'position_opened',
      wallet: trader.wallet,
      details: { positionId },
      occurredAt: expect.any(String),
    });
    expect(discordTexts().filter((t) => t.includes('Position opened'))).toHaveLength(1);
    expect(world.discord.delivered(a.discordHook)[0]!.body.allowed_mentions).toEqual({ parse: [] });
    expect(telegramTexts().filter((t) => t.includes('Position opened'))).toHaveLength(1);
    expect(telegramTexts().find((t) => t.includes('Position opened'))).toContain('e2e *trader*');
  });

  it('raises exactly one liquidation-risk alert as the price moves toward the bust price', async () => {
    await setVenuePrice(world.stack, 'BTC', 99_400);
    const risk = await deliveredAlert(world.call, a.token, 'liquidation_risk');
    expect(risk.details).toMatchObject({ positionId, belowPct: 0.5 });
    expect(risk.details['distancePct'] as number).toBeLessThan(0.5);
    await setVenuePrice(world.stack, 'BTC', 99_300);
    const after = Date.now() + 7000;
    await eventually(
      async () => {
        const [row] = await sql<{ last_finished_at: Date }>(
          world.stack.database.url,
          `SELECT last_finished_at FROM alerts.poll_status WHERE name = 'wallets'`,
        );
        return row && row.last_finished_at.getTime() > after;
      },
      20000,
      'polls after the second price move',
    );
    expect((await alerts(world.call, a.token)).filter((x) => x.kind === 'liquidation_risk')).toHaveLength(1);
    expect(webhookBodies(risk.eventId).filter((r) => r.status === 200)).toHaveLength(1);
    expect(discordTexts().filter((t) => t.includes('Liquidation risk'))).toHaveLength(1);
    expect(telegramTexts().filter((t) => t.includes('Liquidation risk'))).toHaveLength(1);
  });

  it('then a liquidated alert; a receiver that fails twice gets the same event id, re-signed each attempt', async () => {
    world.receiver.failNext(2, 503);
    world.flaky.failAlways(500);
    await setVenuePrice(world.stack, 'BTC', 99_000);
    const liquidated = await deliveredAlert(world.call, a.token, 'position_liquidated', 45000);
    liquidatedEventId = liquidated.eventId;
    expect(liquidated.details).toMatchObject({ positionId });
    const attempts = webhookBodies(liquidated.eventId);
    expect(attempts.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(attempts.every((r) => r.valid && r.headerEventId === liquidated.eventId)).toBe(true);
    expect(new Set(attempts.map((r) => r.signature)).size).toBe(3);
    expect(new Set(attempts.map((r) => r.rawBody)).size).toBe(1);
    expect(liquidated.deliveries.find((d) => d.channelKind === 'webhook')!.attempts).toBe(3);
    expect(discordTexts().filter((t) => t.includes('Position liquidated'))).toHaveLength(1);
    expect(telegramTexts().filter((t) => t.includes('Position liquidated'))).toHaveLength(1);
    expect((await alerts(world.call, a.token)).filter((x) => x.kind === 'liquidation_risk')).toHaveLength(1);
  });

  it('dead-letters a receiver that always fails, and the retry endpoint re-delivers the same event', async () => {
    const dead = await eventually(
      async () => {
        const res = await world.call<{
          deliveries: { id: string; eventId: string; attempts: number; lastError: string }[];
        }>('GET', '/api/deliveries/dead', { token: b.token });
        return res.body.deliveries[0];
      },
      30000,
      'a dead letter',
    );
    expect(dead).toMatchObject({
      eventId: expect.stringMatching(/^evt_/),
      attempts: 4,
      lastError: expect.stringContaining('500'),
    });
    expect(world.flaky.received.filter((r) => r.eventId === dead.eventId).map((r) => r.status)).toEqual([
      500, 500, 500, 500,
    ]);
    world.flaky.failAlways(null);
    const retry = await world.call('POST', `/api/deliveries/${dead.id}/retry`, { token: b.token });
    expect(retry.status).toBe(202);
    await eventually(
      async () => world.flaky.accepted().find((r) => r.eventId === dead.eventId),
      20000,
      'the re-delivery',
    );
    const [alert] = await alerts(world.call, b.token);
    expect(alert).toMatchObject({ kind: 'position_liquidated', eventId: dead.eventId });
    await eventually(
      async () => (await alerts(world.call, b.token))[0]!.deliveries[0]!.status === 'delivered',
      10000,
      'delivered status',
    );
    expect(liquidatedEventId).not.toBe(dead.eventId);
  });

  it('loses no alert when the dispatcher is killed mid-delivery (at least once, same event id)', async () => {
    world.receiver.hold(true);
    const heldBefore = world.receiver.held;
    const second = await openPosition(world.stack.baseUrl, trader, {
      market: 'ETH',
      side: 'short',
      marginUsd: 100,
      leverage: 100,
    });
    await eventually(async () => world.receiver.held > heldBefore, 30000, 'the webhook request in flight');
    await world.stack.stopApp('alerts-dispatcher', true);
    world.receiver.hold(false);
    await world.stack.restartApp('alerts-dispatcher');
    const opened = await deliveredAlert(
      world.call,
      a.token,
      'position_opened',
      30000,
      (x) => x.details['positionId'] === second.positionId,
    );
    const accepted = world.receiver.accepted().filter((r) => r.eventId === opened.eventId);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((r) => r.body?.['id']))).toEqual(new Set([opened.eventId]));
    positionId = second.positionId;
  });

  it('loses no alert and repeats none when the poller is killed during a pass; paused channels receive nothing', async () => {
    const before = await alerts(world.call, a.token);
    const pause = await world.call('PATCH', `/api/channels/${a.channels.discord}`, {
      token: a.token,
      body: { status: 'paused' },
    });
    expect(pause.status).toBe(200);
    const closedFor = (list: Awaited<ReturnType<typeof alerts>>) =>
      list.filter((x) => x.kind === 'position_closed' && x.details['positionId'] === positionId);
    // Hold the poller's read of the event log that reports the close: the poller has fetched it and is inside its pass.
    const reportsClose = (body: string) =>
      (
        JSON.parse(body) as { data?: { events?: { type: string; data: { positionId?: string } }[] } }
      ).data?.events?.some((e) => e.type === 'position.closed' && e.data.positionId === positionId) ?? false;
    const held = world.gate.holdAnswer(
      (path, body) => path.startsWith('/api/v1/tools/get_events') && reportsClose(body),
    );
    const close = await callTool(
      world.stack.baseUrl,
      'close_positions',
      { positionIds: [positionId] },
      { token: trader.token },
    );
    expect(close.status).toBe(200);
    await held.reached;
    await world.stack.stopApp('alerts-poller', true);
    world.gate.release();
    expect(closedFor(await alerts(world.call, a.token))).toEqual([]);
    await world.stack.restartApp('alerts-poller');
    const closed = await deliveredAlert(
      world.call,
      a.token,
      'position_closed',
      30000,
      (x) => x.details['positionId'] === positionId,
    );
    expect(closed.deliveries.map((d) => d.channelKind).sort()).toEqual(['telegram', 'webhook']);
    expect(discordTexts().some((t) => t.includes('Position closed'))).toBe(false);
    // Polls after the restart (well past the feed overlap of the re-read) raise nothing more.
    const after = Date.now() + 3000;
    await eventually(
      async () => {
        const [row] = await sql<{ last_finished_at: Date }>(
          world.stack.database.url,
          `SELECT last_finished_at FROM alerts.poll_status WHERE name = 'wallets'`,
        );
        return row && row.last_finished_at.getTime() > after;
      },
      20000,
      'polls after the restart',
    );
    const final = await alerts(world.call, a.token);
    expect(closedFor(final)).toHaveLength(1);
    expect(final.length).toBe(before.length + 1);
    expect(world.receiver.accepted().filter((r) => r.eventId === closed.eventId)).toHaveLength(1);
    expect(telegramTexts().filter((t) => t.includes('Position closed'))).toHaveLength(1);
  });
});
