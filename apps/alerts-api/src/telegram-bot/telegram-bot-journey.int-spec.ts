import { type FakeServer, json, startFakeServer, startTelegramFake, type TelegramFake } from '@paper/dev-stack';
import { NOT_SENT_PAUSED } from '@paper/alerts-data';
import { randomBytes } from 'node:crypto';
import type { StorageReadiness } from '../storage/storage-readiness.service';
import { BotTestKit } from '../testing/bot-test-kit';
import { visibleText } from './bot-text';
import { TelegramLongPoller } from './telegram-long-poller.service';
import type { UpdateOutcome } from './telegram-updates.service';
import { CHAT_BURST } from './update-batches';

const RULES = {
  liquidation: { enabled: true, belowPct: 5 },
  opened: true,
  closed: true,
  liquidated: true,
  balance: { enabled: false, changeUsd: 1000 },
  sessionKey: { enabled: false, withinDays: 3 },
  rewards: { enabled: false, aboveUsdc: 100 },
};
const wallet = () => `0x${randomBytes(20).toString('hex')}`;

/** Polls `read` until `done` holds (or fails after `timeoutMs`). */
async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** An open position as get_account lists it. */
const position = (positionId: string, market: 'BTC' | 'ETH', distance: number, mark: number) => ({
  positionId,
  market,
  side: 'long',
  marginUsd: 100,
  leverage: 50,
  notionalUsd: 5000,
  entryPrice: mark * 1.01,
  markPrice: mark,
  bustPrice: Number((mark * (1 - distance / 100)).toFixed(2)),
  estimatedPnlUsd: -49.5,
  estimatedPnlPercent: -49.5,
  liquidationDistancePercent: distance,
  liquidationRiskPercent: 50,
  openedAt: '2026-11-27T10:00:00.000Z',
});

describe('Telegram bot as a new user meets it (Bot API stand-in, PostgreSQL, Redis)', () => {
  let kit: BotTestKit;
  let telegram: TelegramFake;
  let exchange: FakeServer;
  /** Open positions the exchange stand-in reports per wallet (a wallet not listed has none; null answers 502). */
  const open = new Map<string, ReturnType<typeof position>[] | null>();
  let offset: number | undefined;

  beforeAll(async () => {
    telegram = await startTelegramFake({ perChatPerSecond: 1000, globalPerSecond: 1000 });
    exchange = await startFakeServer((req, res) => {
      const wallet = req.query.get('wallet') ?? '';
      if (req.path !== '/api/v1/tools/get_account') return json(res, 404, { ok: false });
      const positions = open.get(wallet);
      if (positions === null) return json(res, 502, { ok: false, error: { code: 'upstream', message: 'down' } });
      return json(res, 200, { ok: true, data: { wallet, exists: true, positions: positions ?? [] } });
    });
    kit = await BotTestKit.start({
      EXCHANGE_API_URL: exchange.url,
      TELEGRAM_API_BASE: telegram.apiBase,
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_UPDATES_MODE: 'off',
      ALERTS_BASE_URL: 'https://alerts.example.test',
      ALERTS_MAX_WATCHES: '25',
      ALERTS_TELEGRAM_CHAT_RATE: '1000/1000',
      ALERTS_TELEGRAM_GLOBAL_RATE: '1000/1000',
    });
  });

  afterAll(async () => {
    await kit?.stop();
    await telegram?.close();
    await exchange?.close();
  });

  const drain = async (): Promise<UpdateOutcome[]> => {
    const outcomes: UpdateOutcome[] = [];
    for (const update of await kit.client.getUpdates(offset, 0)) {
      outcomes.push(await kit.updates.process(update));
      offset = update.update_id + 1;
    }
    return outcomes;
  };
  const say = async (chat: number, text: string): Promise<UpdateOutcome> => {
    telegram.userSends(chat, text);
    const [outcome] = await drain();
    return outcome!;
  };
  const press = async (chat: number, messageId: number, data: string): Promise<UpdateOutcome> => {
    telegram.userPresses(chat, messageId, data);
    const [outcome] = await drain();
    return outcome!;
  };
  const last = (chat: number) => telegram.delivered(chat).at(-1)!;
  const accountOf = async (chat: number): Promise<string | undefined> =>
    (
      (await kit.db.query(`SELECT account_id FROM alerts.telegram_chats WHERE chat_id = $1`, [chat])) as {
        account_id: string;
      }[]
    )[0]?.account_id;
  const linkCode = async (accountId: string): Promise<string> => {
    const code = randomBytes(24).toString('base64url');
    await kit.db.query(
      `INSERT INTO alerts.telegram_link_codes (code, account_id, expires_at) VALUES ($1, $2, now() + interval '15 minutes')`,
      [code, accountId],
    );
    return code;
  };
  const addWatch = (accountId: string, address: string, label: string | null = null) =>
    kit.db.query(`INSERT INTO alerts.watches (account_id, address, label, rules) VALUES ($1, $2, $3, $4)`, [
      accountId,
      address,
      label,
      JSON.stringify(RULES),
    ]);

  it('a chat with its own account that links an API account acts on the linked one: /pause, /list, /unwatch', async () => {
    expect(await say(700, '/start')).toBe('started');
    const own = await accountOf(700);
    const api = await kit.account();
    const apiChannel = await kit.channel(api, 'webhook', 'https://receiver.example.test/hook');
    const watched = wallet();
    await addWatch(api, watched, 'api desk');
    expect(await say(700, `/start ${await linkCode(api)}`)).toBe('linked');
    expect(await accountOf(700)).toBe(api);
    expect(await say(700, '/pause')).toBe('paused');
    expect(
      await kit.db.query(`SELECT account_id, kind, status FROM alerts.channels WHERE target = '700' ORDER BY kind`),
    ).toEqual(
      expect.arrayContaining([
        { account_id: api, kind: 'telegram', status: 'paused' },
        { account_id: own, kind: 'telegram', status: 'active' },
      ]),
    );
    expect(await kit.db.query(`SELECT status FROM alerts.channels WHERE id = $1`, [apiChannel])).toEqual([
      { status: 'active' },
    ]);
    expect(await say(700, '/list')).toBe('listed');
    expect(visibleText(last(700).text)).toContain(`api desk ${watched}`);
    expect(await say(700, '/unwatch api desk')).toBe('unwatched');
    expect(await kit.db.query(`SELECT count(*)::int AS n FROM alerts.watches WHERE account_id = $1`, [api])).toEqual([
      { n: 0 },
    ]);
  });

  it('/list pages with buttons instead of pointing at an API route', async () => {
    expect(await say(710, '/start')).toBe('started');
    const account = (await accountOf(710))!;
    for (let i = 1; i <= 23; i += 1) await addWatch(account, wallet(), `w${String(i).padStart(2, '0')}`);
    expect(await say(710, '/list')).toBe('listed');
    const first = last(710);
    expect(visibleText(first.text)).toMatch(/^Watches \(23 of 25\) · page 1 of 3\n\nw01 0x/);
    expect(first.text).not.toContain('/api/');
    expect(first.keyboard).toEqual([[{ text: 'Page 2 ›', callback_data: 'l:2' }]]);
    expect(await press(710, first.messageId!, 'l:2')).toBe('paged');
    const second = telegram.message(710, first.messageId!)!;
    expect(second.text).toMatch(/^Watches \(23 of 25\) · page 2 of 3\n\nw11 0x/);
    expect(second.keyboard).toEqual([
      [
        { text: '‹ Page 1', callback_data: 'l:1' },
        { text: 'Page 3 ›', callback_data: 'l:3' },
      ],
    ]);
    expect(await say(710, '/list 3')).toBe('listed');
    expect(visibleText(last(710).text)).toMatch(/page 3 of 3\n\nw21 0x[0-9a-f]{40}\n.*\n.*\n\nw22 .*\n.*\n.*\n\nw23 /);
  });

  it('answers a 4096-character /rules, /unwatch and /risk within Telegram’s 4096 characters', async () => {
    expect(await say(720, '/start')).toBe('started');
    const ref = 'x'.repeat(4096);
    for (const command of [`/rules ${ref}`, `/unwatch ${ref}`, `/risk ${ref} 5`]) {
      const before = telegram.sent.filter((s) => s.chatId === '720').length;
      expect(await say(720, command)).toBe('no_match');
      const replies = telegram.sent.filter((s) => s.chatId === '720').slice(before);
      expect(replies.map((r) => r.status)).toEqual([200]);
      expect(visibleText(replies[0]!.text)).toBe(`No watch matches “${'x'.repeat(63)}…”. /list shows your watches.`);
    }
  });

  it('refuses a label shaped like an address, which could not be named afterwards', async () => {
    expect(await say(730, '/start')).toBe('started');
    const address = wallet();
    expect(await say(730, `/watch ${wallet()} ${address}`)).toBe('refused');
    expect(last(730).text).toBe('label must not be a wallet address (it would be taken for the address).');
    expect(await kit.db.query(`SELECT count(*)::int AS n FROM alerts.watches WHERE label = $1`, [address])).toEqual([
      { n: 0 },
    ]);
  });

  it('/start with a payload that is no link code (a deep link ?start=ref_x) sets the chat up as /start does', async () => {
    expect(await say(740, '/start ref_x')).toBe('started');
    expect(await accountOf(740)).toEqual(expect.any(String));
    expect(last(740).text).toMatch(/^Alerts are set up/);
  });

  it('/token says where the alerts API is', async () => {
    expect(await say(750, '/start')).toBe('started');
    expect(await say(750, '/token')).toBe('token_sent');
    expect(visibleText(last(750).text)).toContain(
      'to the alerts API at https://alerts.example.test (e.g. GET https://alerts.example.test/api/me) or to its MCP endpoint https://alerts.example.test/mcp.',
    );
  });

  it('/positions shows the watched wallets’ open positions, nearest to liquidation first, paged with buttons', async () => {
    expect(await say(770, '/start')).toBe('started');
    const account = (await accountOf(770))!;
    const wallets = Array.from({ length: 7 }, wallet);
    for (const [i, address] of wallets.entries()) await addWatch(account, address, `eth ${i + 1}`);
    open.set(wallets[0]!, [position('11', 'ETH', 12.5, 3000), position('12', 'ETH', 0.9, 3000)]);
    open.set(wallets[1]!, null);
    open.set(wallets[6]!, [position('71', 'BTC', 7.25, 100_000)]);
    expect(await say(770, '/positions')).toBe('positions');
    const first = last(770);
    expect(visibleText(first.text)).toBe(
      [
        'Open positions · wallets 1–5 of 7',
        [
          `eth 1 ${wallets[0]}`,
          '🔴 ETH long 50x · margin 100 USDC · PnL -49.5 USDC',
          '    0.9% to liquidation · liquidation price 2,973 (mark 3,000)',
          '🟢 ETH long 50x · margin 100 USDC · PnL -49.5 USDC',
          '    12.5% to liquidation · liquidation price 2,625 (mark 3,000)',
        ].join('\n'),
        `eth 2 ${wallets[1]}\nPositions cannot be read right now; try again shortly.`,
        `eth 3 ${wallets[2]}\nNo open positions.`,
        `eth 4 ${wallets[3]}\nNo open positions.`,
        `eth 5 ${wallets[4]}\nNo open positions.`,
      ].join('\n\n'),
    );
    expect(first.keyboard).toEqual([[{ text: 'Page 2 ›', callback_data: 'p:2' }]]);
    expect(await press(770, first.messageId!, 'p:2')).toBe('paged');
    expect(telegram.message(770, first.messageId!)!.text).toBe(
      [
        'Open positions · wallets 6–7 of 7',
        `eth 6 ${wallets[5]}\nNo open positions.`,
        `eth 7 ${wallets[6]}\n🟠 BTC long 50x · margin 100 USDC · PnL -49.5 USDC\n    7.25% to liquidation · liquidation price 92,750 (mark 100,000)`,
      ].join('\n\n'),
    );
  });

  it('/mute holds back a watch’s alerts for a while, /cooldown spaces them; /list shows both', async () => {
    expect(await say(780, '/start')).toBe('started');
    const account = (await accountOf(780))!;
    const address = wallet();
    await addWatch(account, address, 'desk');
    const quiet = async () =>
      (
        (await kit.db.query(`SELECT muted_until, cooldown_s FROM alerts.watches WHERE address = $1`, [address])) as {
          muted_until: Date | null;
          cooldown_s: number;
        }[]
      )[0]!;
    const before = Date.now();
    expect(await say(780, '/mute desk 2h')).toBe('muted');
    const { muted_until } = await quiet();
    expect(muted_until!.getTime()).toBeGreaterThanOrEqual(before + 7_200_000 - 1000);
    expect(muted_until!.getTime()).toBeLessThanOrEqual(Date.now() + 7_200_000);
    expect(visibleText(last(780).text)).toMatch(
      /^Muted desk 0x[0-9a-f]{40} until \d{4}-\d\d-\d\d \d\d:\d\d UTC \(2 h\)\. Its alerts are still recorded \(\/history\); \/mute desk off lifts it\.$/,
    );
    expect(await say(780, '/cooldown desk 30m')).toBe('cooldown_set');
    expect(await quiet()).toMatchObject({ cooldown_s: 1800 });
    expect(await say(780, '/list')).toBe('listed');
    expect(visibleText(last(780).text)).toMatch(/\nMuted until \d{4}-\d\d-\d\d \d\d:\d\d UTC · Cooldown 30 min\n/);
    expect(await say(780, '/mute desk 31d')).toBe('refused');
    expect(last(780).text).toBe('The duration must be minutes, hours or days up to 30 d (e.g. 30m, 2h, 1d), or off.');
    expect(await say(780, '/mute desk soon')).toBe('refused');
    expect(await say(780, '/mute desk')).toBe('usage');
    expect(await say(780, '/mute desk off')).toBe('unmuted');
    expect(await say(780, '/cooldown desk off')).toBe('cooldown_set');
    expect(await quiet()).toEqual({ muted_until: null, cooldown_s: 0 });
  });

  it('/resume sums up the alerts held back while the chat was paused', async () => {
    expect(await say(790, '/start')).toBe('started');
    const account = (await accountOf(790))!;
    const [channel] = (await kit.db.query(`SELECT id FROM alerts.channels WHERE target = '790'`)) as { id: string }[];
    await kit.delivery(account, channel!.id, 'position_opened');
    expect(await say(790, '/pause')).toBe('paused');
    for (const kind of ['liquidation_risk', 'liquidation_risk', 'position_closed']) {
      await kit.delivery(account, channel!.id, kind);
    }
    // What alerts-dispatcher records for a delivery to a paused channel.
    await kit.db.query(
      `UPDATE alerts.deliveries SET status = 'dead', last_error = $2, updated_at = now()
        WHERE channel_id = $1 AND alert_id IN (SELECT id FROM alerts.alerts WHERE kind <> 'position_opened')`,
      [channel!.id, NOT_SENT_PAUSED],
    );
    expect(await say(790, '/resume')).toBe('resumed');
    expect(visibleText(last(790).text)).toMatch(
      /^Resumed: this chat receives alerts again\.\nHeld back while paused since \d{4}-\d\d-\d\d \d\d:\d\d UTC: 3 alerts \(2 liquidation risk, 1 position closed\)\. \/history lists the last ones\.$/,
    );
    expect(await say(790, '/resume')).toBe('resumed');
    expect(last(790).text).toBe('Resumed: this chat receives alerts again.');
  });

  describe('long polling', () => {
    const ready = { isReady: async () => true } as unknown as StorageReadiness;
    let poller: TelegramLongPoller | undefined;

    afterEach(async () => {
      await poller?.beforeApplicationShutdown();
      poller = undefined;
    });

    it('asks at most once a second while idle when getUpdates answers at once (TELEGRAM_POLL_TIMEOUT_S=0)', async () => {
      const config = { ...kit.config, TELEGRAM_UPDATES_MODE: 'polling' as const, TELEGRAM_POLL_TIMEOUT_S: 0 };
      poller = new TelegramLongPoller(kit.client, kit.updates, ready, kit.redis, config);
      const before = telegram.getUpdatesCalls();
      await poller.onApplicationBootstrap();
      const started = Date.now();
      telegram.userSends(760, '/help');
      await until(
        () => telegram.delivered(760).length,
        (n) => n === 1,
      );
      await until(
        () => Date.now() - started,
        (ms) => ms >= 2500,
      );
      expect(telegram.getUpdatesCalls() - before).toBeLessThanOrEqual(5);
    });
  });
});

describe('Telegram bot replies under Telegram’s rate limits (Bot API stand-in at 1 message per second per chat)', () => {
  let kit: BotTestKit;
  let telegram: TelegramFake;
  let poller: TelegramLongPoller;

  beforeAll(async () => {
    telegram = await startTelegramFake({ perChatPerSecond: 1 });
    kit = await BotTestKit.start({
      TELEGRAM_API_BASE: telegram.apiBase,
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_UPDATES_MODE: 'polling',
      TELEGRAM_POLL_TIMEOUT_S: '1',
    });
    poller = new TelegramLongPoller(
      kit.client,
      kit.updates,
      { isReady: async () => true } as unknown as StorageReadiness,
      kit.redis,
      kit.config,
    );
    await poller.onApplicationBootstrap();
  });

  afterAll(async () => {
    await poller?.beforeApplicationShutdown();
    await kit?.stop();
    await telegram?.close();
  });

  it('one chat flooding 120 /list neither delays another chat’s reply nor gets more than its share', async () => {
    telegram.userSends(801, '/start');
    telegram.userSends(802, '/start');
    await until(
      () => telegram.delivered(801).length + telegram.delivered(802).length,
      (n) => n === 2,
    );
    for (let i = 0; i < 120; i += 1) telegram.userSends(801, '/list');
    const asked = Date.now();
    telegram.userSends(802, '/help');
    await until(
      () => telegram.delivered(802).length,
      (n) => n === 2,
      20_000,
    );
    expect(Date.now() - asked).toBeLessThan(6000);
    await until(
      () => telegram.delivered(801).filter((m) => m.text.startsWith('Too many messages')).length,
      (n) => n === 2,
      20_000,
    );
    const flooded = telegram.delivered(801).slice(1);
    expect(flooded.filter((m) => m.text.startsWith('No watches yet'))).toHaveLength(2 * CHAT_BURST);
  }, 30_000);
});
