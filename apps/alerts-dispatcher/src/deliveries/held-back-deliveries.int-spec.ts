import { startTelegramFake, type TelegramFake } from '@paper/dev-stack';
import { randomUUID } from 'node:crypto';
import { DispatcherTestKit, until } from '../testing/dispatcher-test-kit';

const RULES = {
  liquidation: { enabled: true, belowPct: 50 },
  opened: true,
  closed: true,
  liquidated: true,
  balance: { enabled: false, changeUsd: 1000 },
  sessionKey: { enabled: false, withinDays: 3 },
  rewards: { enabled: false, aboveUsdc: 100 },
};

describe('deliveries held back by their watch: superseded, muted, in cooldown (PostgreSQL + Redis, Bot API stand-in)', () => {
  let kit: DispatcherTestKit;
  let telegram: TelegramFake;

  beforeAll(async () => {
    telegram = await startTelegramFake({ perChatPerSecond: 1 });
    kit = await DispatcherTestKit.start({
      TELEGRAM_API_BASE: telegram.apiBase,
      TELEGRAM_BOT_TOKEN: telegram.token,
      ALERTS_DELIVERY_POLL_MS: '200',
    });
    await kit.processor.onApplicationBootstrap();
  });

  afterAll(async () => {
    await kit?.stop();
    await telegram?.close();
  });

  /** A watch of the account and `n` queued deliveries of its alerts (of `kind`, details merged in) to `channel`. */
  const queue = async (account: string, channel: string, watch: string, n: number, kind: string, details: object) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const d = await kit.delivery(account, channel, kind);
      await kit.db.query(
        `UPDATE alerts.alerts SET watch_id = $2, details = details || $3::jsonb
          WHERE id = (SELECT alert_id FROM alerts.deliveries WHERE id = $1)`,
        [d.id, watch, JSON.stringify({ positionId: String(i + 1), ...details })],
      );
      ids.push(d.id);
    }
    return ids;
  };
  const rows = (ids: string[]) =>
    kit.db.query(`SELECT status, last_error FROM alerts.deliveries WHERE id = ANY($1)`, [ids]) as Promise<
      { status: string; last_error: string | null }[]
    >;

  it('sends no queued liquidation-risk alert above a threshold lowered since (/risk 50, then /risk 5)', async () => {
    const account = await kit.account();
    const channel = await kit.channel(account, 'telegram', '9101');
    const watch = randomUUID();
    await kit.db.query(`INSERT INTO alerts.watches (id, account_id, address, rules) VALUES ($1, $2, $3, $4)`, [
      watch,
      account,
      '0x52908400098527886e0f7030069857d2e4169ee7',
      JSON.stringify(RULES),
    ]);
    const ids = await queue(account, channel, watch, 14, 'liquidation_risk', { distancePct: 20, belowPct: 50 });
    await kit.wakeUp();
    await until(async () => telegram.delivered(9101).length >= 1 || undefined, 'the first alert');
    await kit.db.query(
      `UPDATE alerts.watches SET rules = jsonb_set(rules, '{liquidation,belowPct}', '5') WHERE id = $1`,
      [watch],
    );
    const settled = await until(
      async () =>
        (await rows(ids)).every((r) => r.status === 'delivered' || r.status === 'dead') ? rows(ids) : undefined,
      'every delivery to settle',
    );
    const delivered = settled.filter((r) => r.status === 'delivered').length;
    expect(delivered).toBeLessThanOrEqual(2);
    expect(telegram.delivered(9101)).toHaveLength(delivered);
    expect(settled.filter((r) => r.status === 'dead')).toEqual(
      Array.from({ length: 14 - delivered }, () => ({
        status: 'dead',
        last_error: 'not sent: the liquidation-risk threshold of the watch is now 5%',
      })),
    );
  });

  it('sends an alert still below the threshold, and none of a trade rule switched off', async () => {
    const account = await kit.account();
    const channel = await kit.channel(account, 'telegram', '9102');
    const watch = randomUUID();
    await kit.db.query(`INSERT INTO alerts.watches (id, account_id, address, rules) VALUES ($1, $2, $3, $4)`, [
      watch,
      account,
      '0x8617e340b3d01fa5f11f306f4090fd50e238070d',
      JSON.stringify({ ...RULES, opened: false }),
    ]);
    const [risk] = await queue(account, channel, watch, 1, 'liquidation_risk', { distancePct: 3, belowPct: 50 });
    const [opened] = await queue(account, channel, watch, 1, 'position_opened', {});
    await kit.wakeUp();
    await until(
      async () =>
        (await rows([risk!, opened!])).every((r) => r.status === 'delivered' || r.status === 'dead') ? true : undefined,
      'both to settle',
    );
    expect(await kit.row(risk!)).toMatchObject({ status: 'delivered' });
    expect(await kit.row(opened!)).toMatchObject({
      status: 'dead',
      attempts: 0,
      last_error: 'not sent: the opened rule of the watch was switched off',
    });
  });

  it('holds back the alerts of a muted watch, and sends one per cooldown of a watch that has one', async () => {
    const account = await kit.account();
    const channel = await kit.channel(account, 'telegram', '9103');
    const [muted, cooled] = [randomUUID(), randomUUID()];
    await kit.db.query(
      `INSERT INTO alerts.watches (id, account_id, address, rules, muted_until, cooldown_s)
       VALUES ($1, $3, '0x27b1fdb04752bbc536007a920d24acb045561c26', $4, now() + interval '1 hour', 0),
              ($2, $3, '0xde709f2102306220921060314715629080e2fb77', $4, NULL, 600)`,
      [muted, cooled, account, JSON.stringify(RULES)],
    );
    const [quiet] = await queue(account, channel, muted, 1, 'position_opened', {});
    const burst = await queue(account, channel, cooled, 3, 'position_opened', {});
    await kit.wakeUp();
    const settled = await until(async () => {
      const all = await rows([quiet!, ...burst]);
      return all.every((r) => r.status === 'delivered' || r.status === 'dead') ? all : undefined;
    }, 'every delivery to settle');
    expect(settled).toHaveLength(4);
    expect((await kit.row(quiet!)).last_error).toMatch(/^not sent: the watch is muted until \d{4}-\d\d-\d\dT/);
    const outcomes = await rows(burst);
    expect(outcomes.filter((r) => r.status === 'delivered')).toHaveLength(1);
    expect(outcomes.filter((r) => r.status === 'dead')).toEqual([
      { status: 'dead', last_error: 'not sent: the watch is in its cooldown (at most one alert per 10 min)' },
      { status: 'dead', last_error: 'not sent: the watch is in its cooldown (at most one alert per 10 min)' },
    ]);
    expect(telegram.delivered(9103)).toHaveLength(1);
  });
});
