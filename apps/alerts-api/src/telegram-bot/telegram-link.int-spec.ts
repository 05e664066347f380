import { startTelegramFake, type TelegramFake } from '@paper/dev-stack';
import { ALERTS_LIMITS, destinationBuckets, TokenBuckets } from '@paper/alerts-delivery';
import { BotTestKit } from '../testing/bot-test-kit';
import type { TelegramUpdate } from './telegram-bot.client';
import type { TelegramLinkService } from '../telegram/telegram-link.service';

describe('Telegram /start <code> linking (PostgreSQL + Redis)', () => {
  let kit: BotTestKit;
  let telegram: TelegramFake;
  let nextUpdate = 1000;

  beforeAll(async () => {
    telegram = await startTelegramFake();
    kit = await BotTestKit.start({
      TELEGRAM_API_BASE: telegram.apiBase,
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_UPDATES_MODE: 'off',
    });
  });

  afterAll(async () => {
    await kit?.stop();
    await telegram?.close();
  });

  const update = (chatId: number, text: string, id = nextUpdate++): TelegramUpdate => ({
    update_id: id,
    message: {
      message_id: id,
      text,
      chat: { id: chatId, type: 'private', first_name: 'Ann' },
      from: { id: chatId, first_name: 'Ann' },
    },
  });
  const code = async (accountId: string, minutes = 15): Promise<string> => {
    const value = `code_${nextUpdate++}_abcdefghijklmnop`;
    await kit.db.query(
      `INSERT INTO alerts.telegram_link_codes (code, account_id, expires_at) VALUES ($1, $2, now() + make_interval(mins => $3))`,
      [value, accountId, minutes],
    );
    return value;
  };
  const lastReply = (chatId: number) => telegram.delivered(chatId).at(-1)?.text;

  it('links the chat once, replies, and handles a repeated update only once', async () => {
    const account = await kit.account();
    const c = await code(account);
    const u = update(501, `/start ${c}`);
    expect(await kit.updates.process(u)).toBe('linked');
    expect(await kit.updates.process(u)).toBe('duplicate');
    expect(telegram.delivered(501)).toHaveLength(1);
    expect(lastReply(501)).toMatch(/^Linked\./);
    const channels = await kit.db.query(
      `SELECT kind, target, status, label FROM alerts.channels WHERE account_id = $1`,
      [account],
    );
    expect(channels).toEqual([{ kind: 'telegram', target: '501', status: 'active', label: 'Telegram Ann' }]);
    expect(await kit.updates.process(update(501, `/start ${c}`))).toBe('already_linked');
    expect(await kit.updates.process(update(502, `/start ${c}`))).toBe('used_code');
  });

  it('sets up a chat whose payload is no link code, answers expired codes, and re-activates a chat that was disabled', async () => {
    const account = await kit.account();
    expect(await kit.updates.process(update(601, '/start nope'))).toBe('started');
    expect(lastReply(601)).toMatch(/^Alerts are set up/);
    expect(await kit.updates.process(update(601, `/start ${await code(account, -1)}`))).toBe('expired_code');
    expect(await kit.updates.process(update(601, `/start@${telegram.username} ${await code(account)}`))).toBe('linked');
    await kit.db.query(
      `UPDATE alerts.channels SET status = 'disabled', disabled_reason = 'blocked' WHERE account_id = $1`,
      [account],
    );
    expect(await kit.updates.process(update(601, `/start ${await code(account)}`))).toBe('linked');
    expect(
      await kit.db.query(`SELECT status, disabled_reason FROM alerts.channels WHERE account_id = $1`, [account]),
    ).toEqual([{ status: 'active', disabled_reason: null }]);
  });

  it('refuses a new chat once the account has the shared maximum number of channels', async () => {
    const account = await kit.account();
    for (let i = 1; i < ALERTS_LIMITS.channelsPerAccount; i += 1)
      await kit.channel(account, 'webhook', `https://example.com/${i}`);
    expect(await kit.updates.process(update(701, `/start ${await code(account)}`))).toBe('linked');
    expect(await kit.updates.process(update(702, `/start ${await code(account)}`))).toBe('limit_reached');
  });

  it('loses no /start when the process dies before the link commits: the update is handled again', async () => {
    const account = await kit.account();
    const u = update(801, `/start ${await code(account)}`);
    let started!: () => void;
    const reached = new Promise<void>((resolve) => (started = resolve));
    const dying = kit.updatesWith({
      redeem: () => (started(), new Promise(() => undefined)),
    } as unknown as TelegramLinkService);
    void dying.process(u);
    await reached;
    expect(await kit.updates.process(u)).toBe('linked');
    expect(await kit.db.query(`SELECT target FROM alerts.channels WHERE account_id = $1`, [account])).toEqual([
      { target: '801' },
    ]);
    expect(lastReply(801)).toMatch(/^Linked\./);
  });

  it('handles an update again when the process died after the link committed: idempotent, one channel', async () => {
    const account = await kit.account();
    const u = update(901, `/start ${await code(account)}`);
    const chat = { chatId: '901', userId: '901', label: 'Telegram Ann' };
    expect((await kit.links.redeem(u.message!.text!.split(' ')[1]!, chat)).result).toBe('linked');
    expect(await kit.updates.process(u)).toBe('already_linked');
    expect(await kit.updates.process(u)).toBe('duplicate');
    expect(
      await kit.db.query(`SELECT count(*)::int AS n FROM alerts.channels WHERE account_id = $1`, [account]),
    ).toEqual([{ n: 1 }]);
    expect(telegram.delivered(901)).toHaveLength(1);
  });

  it('skips an update that fails for a reason other than an outage (marked, never retried), and retries one that met an outage', async () => {
    const account = await kit.account();
    const failing = update(1001, `/start ${await code(account)}`);
    const bug = kit.updatesWith({
      redeem: () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'id')")),
    } as unknown as TelegramLinkService);
    expect(await bug.process(failing)).toBe('failed');
    expect(await kit.updates.process(failing)).toBe('duplicate');
    const later = update(1002, `/start ${await code(account)}`);
    const outage = kit.updatesWith({
      redeem: () =>
        Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    } as unknown as TelegramLinkService);
    await expect(outage.process(later)).rejects.toThrow('ECONNREFUSED');
    expect(await kit.updates.process(later)).toBe('linked');
  });

  it('replies from the same per-chat bucket as alert deliveries: a held chat delays the reply, and the reply books a slot', async () => {
    const buckets = new TokenBuckets(kit.redis, kit.config.REDIS_PREFIX);
    const chat = destinationBuckets({ kind: 'telegram', target: '1201' }, kit.config);
    await buckets.hold(chat, 1500);
    const started = Date.now();
    expect(await kit.updates.process(update(1201, '/start nope'))).toBe('started');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(telegram.delivered(1201)).toHaveLength(1);
    expect(await buckets.take(chat)).toBeGreaterThan(0);
  });

  it('refuses text PostgreSQL cannot store before anything runs, and goes on with the next update', async () => {
    expect(await kit.updates.process(update(1101, '/watch 0x52908400098527886e0f7030069857d2e4169ee7 a\u0000b'))).toBe(
      'unstorable',
    );
    expect(telegram.delivered(1101)).toEqual([]);
    expect(await kit.updates.process(update(1101, '/help'))).toBe('help');
  });
});
