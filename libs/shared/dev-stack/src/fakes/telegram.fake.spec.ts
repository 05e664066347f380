import { startTelegramFake, type TelegramFake } from './telegram.fake';

describe('Bot API stand-in refuses what Telegram refuses', () => {
  let telegram: TelegramFake;

  beforeAll(async () => {
    telegram = await startTelegramFake({ perChatPerSecond: 1000, globalPerSecond: 1000 });
  });

  afterAll(async () => {
    await telegram?.close();
  });

  const send = async (chatId: number, text: string, extra: object = {}, to: TelegramFake = telegram) => {
    const response = await fetch(`${to.apiBase}/bot${to.token}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chatId, text, parse_mode: 'HTML', ...extra }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('counts 4096 characters after entity parsing', async () => {
    expect((await send(1, `<b>${'&lt;'.repeat(4096)}</b>`)).status).toBe(200);
    expect(await send(2, 'x'.repeat(4097))).toEqual({
      status: 400,
      body: { ok: false, error_code: 400, description: 'Bad Request: message is too long' },
    });
  });

  it('refuses bad HTML: unknown tags, stray characters, unbalanced tags', async () => {
    expect((await send(3, '<p>x</p>')).body['description']).toMatch(/^Bad Request: can't parse entities/);
    expect((await send(4, 'a & b')).status).toBe(400);
    expect((await send(5, '<b>open')).body['description']).toBe(
      `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`,
    );
    expect((await send(6, '<b><i>x</b></i>')).body['description']).toBe(
      `Bad Request: can't parse entities: Unmatched end tag at byte offset 7, expected "</i>", found "</b>"`,
    );
  });

  it('refuses callback_data over 64 bytes', async () => {
    const keyboard = (data: string) => ({ reply_markup: { inline_keyboard: [[{ text: 'go', callback_data: data }]] } });
    expect((await send(7, 'ok', keyboard('é'.repeat(32)))).status).toBe(200);
    expect((await send(8, 'no', keyboard('é'.repeat(33)))).body['description']).toBe(
      'Bad Request: BUTTON_DATA_INVALID',
    );
  });

  it('answers 429 with parameters.retry_after when a chat or the whole bot is flooded', async () => {
    const busy = await startTelegramFake({ perChatPerSecond: 2, globalPerSecond: 5 });
    try {
      const to = (chat: number, text: string) => send(chat, text, {}, busy);
      expect((await to(9, 'one')).status).toBe(200);
      expect((await to(9, 'two')).status).toBe(200);
      expect(await to(9, 'three')).toEqual({
        status: 429,
        body: {
          ok: false,
          error_code: 429,
          description: 'Too Many Requests: retry after 1',
          parameters: { retry_after: 1 },
        },
      });
      for (const chat of [10, 11, 12]) expect((await to(chat, 'hi')).status).toBe(200);
      expect((await to(13, 'hi')).status).toBe(429);
    } finally {
      await busy.close();
    }
  });
});
