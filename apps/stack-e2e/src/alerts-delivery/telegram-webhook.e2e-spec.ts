import { startTelegramFake, startTestStack, type TelegramFake, type TestStack } from '@paper/dev-stack';
import { type Call, client, eventually, newAccount } from '../alerts/alerts-test-kit';

const SECRET = 'e2e_webhook_secret-0123456789';

describe('Telegram bot updates by webhook (alerts-api, through the alerts base URL)', () => {
  let stack: TestStack;
  let telegram: TelegramFake;
  let call: Call;
  let hookUrl: string;

  beforeAll(async () => {
    telegram = await startTelegramFake();
    stack = await startTestStack({
      apps: ['alerts-api'],
      env: {
        TELEGRAM_API_BASE: telegram.apiBase,
        TELEGRAM_BOT_TOKEN: telegram.token,
        TELEGRAM_BOT_USERNAME: telegram.username,
        TELEGRAM_UPDATES_MODE: 'webhook',
        TELEGRAM_WEBHOOK_SECRET: SECRET,
      },
    });
    call = client(stack.alertsUrl);
    hookUrl = `${stack.alertsUrl}/telegram/webhook`;
    const set = await fetch(`${telegram.apiBase}/bot${telegram.token}/setWebhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: hookUrl, secret_token: SECRET }),
    });
    expect(set.status).toBe(200);
  });

  afterAll(async () => {
    await stack?.stop();
    await telegram?.close();
  });

  it('refuses updates without the secret header or with a wrong one', async () => {
    const body = JSON.stringify({
      update_id: 1,
      message: { message_id: 1, text: '/start x', chat: { id: 5, type: 'private' } },
    });
    const missing = await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ code: 'unauthorized', message: expect.any(String) });
    const wrong = await fetch(hookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'nope' },
      body,
    });
    expect(wrong.status).toBe(401);
    const bad = await fetch(hookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
      body: '{"hello":1}',
    });
    expect(bad.status).toBe(400);
    expect(telegram.sent).toEqual([]);
  });

  it('links a chat from /start <code> pushed by Telegram and replies', async () => {
    const { token } = await newAccount(call);
    const link = await call<{ code: string; deepLink: string }>('POST', '/api/telegram/link', { token });
    expect(link.body.deepLink).toBe(`https://t.me/${telegram.username}?start=${link.body.code}`);
    telegram.userSends(880_001, `/start ${link.body.code}`);
    const reply = await eventually(async () => telegram.delivered(880_001)[0], 15000, 'the bot reply');
    expect(reply.text).toMatch(/^Linked\./);
    // The bot replies while it handles the pushed update; Telegram records the webhook's answer after it.
    expect(await eventually(async () => telegram.webhookDeliveries.at(-1), 15000, 'the webhook answer')).toMatchObject({
      status: 200,
    });
    const me = await call<{ channels: { kind: string; status: string }[] }>('GET', '/api/me', { token });
    expect(me.body.channels).toEqual([expect.objectContaining({ kind: 'telegram', status: 'active' })]);
  });

  it('runs bot commands and button presses pushed by Telegram; in a group only the member who set it up changes it', async () => {
    const group = -100_880_002;
    const owner = 880_010;
    const stranger = 880_011;
    const wallet = '0x52908400098527886e0f7030069857d2e4169ee7';
    const replies = () => telegram.delivered(group);
    const say = async (text: string, from: number) => {
      const before = replies().length;
      telegram.userSends(group, text, 'group', from);
      return eventually(async () => replies()[before], 15000, `the reply to ${text}`);
    };
    expect((await say(`/start@${telegram.username}`, owner)).text).toMatch(/^Alerts are set up/);
    expect((await say(`/watch ${wallet} desk`, stranger)).text).toBe(
      'Only the member who set up alerts in this chat can change them.',
    );
    expect((await say(`/watch ${wallet} desk`, owner)).text).toMatch(/^Watching <b>desk<\/b>/);
    const rules = await say('/rules desk', stranger);
    const closed = rules.keyboard![0]![1]!;
    expect(closed.text).toBe('✅ Closed');
    telegram.userPresses(group, rules.messageId!, closed.callback_data, owner);
    const edited = await eventually(
      async () => telegram.message(group, rules.messageId!)?.keyboard?.[0]?.[1]?.text === '❌ Closed' || undefined,
      15000,
      'the redrawn keyboard',
    );
    expect(edited).toBe(true);
    // The redraw and the answer to the press are two calls to Telegram, in no fixed order.
    const answer = await eventually(async () => telegram.callbackAnswers.at(-1), 15000, 'the answer to the press');
    expect(answer).toMatchObject({
      text: 'Saved: liquidation risk below 5% · opened · liquidated',
      showAlert: false,
    });
    expect(telegram.webhookDeliveries.every((d) => d.status === 200)).toBe(true);
  });
});
