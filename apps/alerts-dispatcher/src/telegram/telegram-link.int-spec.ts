import { startTelegramFake, type TelegramFake } from '@paper/dev-stack';
import { DispatcherTestKit } from '../testing/dispatcher-test-kit';
import type { TelegramUpdate } from './telegram-bot.client';

describe('Telegram /start <code> linking (PostgreSQL + Redis)', () => {
  let kit: DispatcherTestKit;
  let telegram: TelegramFake;
  let nextUpdate = 1000;

  beforeAll(async () => {
    telegram = await startTelegramFake();
    kit = await DispatcherTestKit.start({ TELEGRAM_API_BASE: telegram.apiBase, TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_UPDATES_MODE: 'off', ALERTS_MAX_CHANNELS: '2' });
  });

  afterAll(async () => {
    await kit?.stop();
    await telegram?.close();
  });

  const update = (chatId: number, text: string, id = nextUpdate++): TelegramUpdate => ({ update_id: id, message: { message_id: id, text, chat: { id: chatId, type: 'private', first_name: 'Ann' } } });
  const code = async (accountId: string, minutes = 15): Promise<string> => {
    const value = `code_${nextUpdate++}_abcdefghijklmnop`;
    await kit.db.query(`INSERT INTO alerts.telegram_link_codes (code, account_id, expires_at) VALUES ($1, $2, now() + make_interval(mins => $3))`, [value, accountId, minutes]);
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
    const channels = await kit.db.query(`SELECT kind, target, status, label FROM alerts.channels WHERE account_id = $1`, [account]);
    expect(channels).toEqual([{ kind: 'telegram', target: '501', status: 'active', label: 'Telegram Ann' }]);
    expect(await kit.updates.process(update(501, `/start ${c}`))).toBe('already_linked');
    expect(await kit.updates.process(update(502, `/start ${c}`))).toBe('used_code');
  });

  it('answers unknown, expired and missing codes, and re-activates a chat that was disabled', async () => {
    const account = await kit.account();
    expect(await kit.updates.process(update(601, '/start nope'))).toBe('unknown_code');
    expect(lastReply(601)).toContain('not valid');
    expect(await kit.updates.process(update(601, `/start ${await code(account, -1)}`))).toBe('expired_code');
    expect(await kit.updates.process(update(601, '/start'))).toBe('no_code');
    expect(await kit.updates.process(update(601, 'hello'))).toBe('help');
    expect(await kit.updates.process(update(601, `/start@${telegram.username} ${await code(account)}`))).toBe('linked');
    await kit.db.query(`UPDATE alerts.channels SET status = 'disabled', disabled_reason = 'blocked' WHERE account_id = $1`, [account]);
    expect(await kit.updates.process(update(601, `/start ${await code(account)}`))).toBe('linked');
    expect(await kit.db.query(`SELECT status, disabled_reason FROM alerts.channels WHERE account_id = $1`, [account])).toEqual([{ status: 'active', disabled_reason: null }]);
  });

  it('refuses a new chat once the account has the maximum number of channels', async () => {
    const account = await kit.account();
    await kit.channel(account, 'webhook', 'https://example.com/a');
    await kit.channel(account, 'webhook', 'https://example.com/b');
    expect(await kit.updates.process(update(701, `/start ${await code(account)}`))).toBe('limit_reached');
  });
});
