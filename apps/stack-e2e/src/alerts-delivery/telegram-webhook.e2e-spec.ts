import { startTelegramFake, startTestStack, type TelegramFake, type TestStack } from '@paper/dev-stack';
import { type Call, client, eventually, newAccount } from '../alerts/alerts-test-kit';

const SECRET = 'e2e_webhook_secret-0123456789';

describe('Telegram bot updates by webhook (alerts-dispatcher)', () => {
  let stack: TestStack;
  let telegram: TelegramFake;
  let call: Call;
  let hookUrl: string;

  beforeAll(async () => {
    telegram = await startTelegramFake();
    stack = await startTestStack({
      apps: ['alerts-api', 'alerts-dispatcher'],
      env: { TELEGRAM_API_BASE: telegram.apiBase, TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_BOT_USERNAME: telegram.username, TELEGRAM_UPDATES_MODE: 'webhook', TELEGRAM_WEBHOOK_SECRET: SECRET },
    });
    call = client(stack.alertsUrl);
    hookUrl = `${stack.appUrls['alerts-dispatcher']}/telegram/webhook`;
    const set = await fetch(`${telegram.apiBase}/bot${telegram.token}/setWebhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: hookUrl, secret_token: SECRET }) });
    expect(set.status).toBe(200);
  });

  afterAll(async () => {
    await stack?.stop();
    await telegram?.close();
  });

  it('refuses updates without the secret header or with a wrong one', async () => {
    const body = JSON.stringify({ update_id: 1, message: { message_id: 1, text: '/start x', chat: { id: 5, type: 'private' } } });
    const missing = await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ code: 'unauthorized', message: expect.any(String) });
    const wrong = await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'nope' }, body });
    expect(wrong.status).toBe(401);
    const bad = await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET }, body: '{"hello":1}' });
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
    // The bot replies while it handles the push, so the push's own answer may be recorded after the reply.
    expect(await eventually(async () => telegram.webhookDeliveries.at(-1), 15000, 'the answer to the push')).toMatchObject({ status: 200 });
    const me = await call<{ channels: { kind: string; status: string }[] }>('GET', '/api/me', { token });
    expect(me.body.channels).toEqual([expect.objectContaining({ kind: 'telegram', status: 'active' })]);
  });
});
