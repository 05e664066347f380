import type { ServerResponse } from 'node:http';
import { type FakeServer, json, startFakeServer } from './http-fake';

export interface TelegramSent {
  chatId: string;
  text: string;
  parseMode?: string;
  status: number;
  at: number;
}

interface Update {
  update_id: number;
  message: { message_id: number; date: number; text: string; chat: { id: number; type: string; first_name?: string; title?: string }; from: { id: number; is_bot: false; first_name: string }; entities?: { type: string; offset: number; length: number }[] };
}

export interface TelegramFake extends FakeServer {
  /** Value for TELEGRAM_API_BASE. */
  apiBase: string;
  token: string;
  username: string;
  sent: TelegramSent[];
  /** A user types `text` in `chatId` (a private chat unless `type` says otherwise); returns the update id. */
  userSends(chatId: number, text: string, type?: 'private' | 'group'): number;
  /** The user blocked the bot: sendMessage to the chat answers 403. */
  block(chatId: number): void;
  /** Messages accepted for a chat. */
  delivered(chatId: number | string): TelegramSent[];
  webhook(): { url: string; secret?: string } | null;
  /** Updates POSTed to the registered webhook and the status it answered. */
  webhookDeliveries: { updateId: number; status: number }[];
}

const TAG = /<\/?(b|strong|i|em|u|ins|s|strike|del|code|pre|tg-spoiler|blockquote)>|<a href="[^"<>]*">|<\/a>|<span class="tg-spoiler">|<\/span>/g;
const ENTITY = /&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);/g;

/** Telegram's HTML parse mode refuses unknown tags and stray `<`, `>`, `&`. */
function htmlError(text: string): string | undefined {
  const stripped = text.replace(TAG, '').replace(ENTITY, '');
  if (/[<>&]/.test(stripped)) return "Bad Request: can't parse entities: unsupported start tag or unescaped character";
  return undefined;
}

/** Plain text of an HTML message, as Telegram stores it. */
function plain(text: string): string {
  return text.replace(TAG, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

/**
 * A Telegram Bot API server for one bot: sendMessage (HTML validation, 4096-character limit, 403 for a
 * chat that blocked the bot, 429 with retry_after when a chat is flooded), getUpdates with offset and
 * long-poll timeout, setWebhook / deleteWebhook (updates POSTed with X-Telegram-Bot-Api-Secret-Token), getMe.
 */
export async function startTelegramFake(options: { token?: string; username?: string; perChatPerSecond?: number } = {}): Promise<TelegramFake> {
  const token = options.token ?? '123456789:AAFakeTokenForTestsOnly_0123456789abc';
  const username = options.username ?? 'paper_alerts_test_bot';
  const sent: TelegramSent[] = [];
  const blocked = new Set<string>();
  const pending: Update[] = [];
  const waiters = new Set<() => void>();
  const webhookDeliveries: { updateId: number; status: number }[] = [];
  let hook: { url: string; secret?: string } | null = null;
  let updateId = 500_000;
  let messageId = 1;
  let polling = false;
  const perChat = options.perChatPerSecond ?? 3;

  const fail = (res: ServerResponse, code: number, description: string, parameters?: object) => json(res, code, { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });

  const pushToWebhook = async (update: Update): Promise<void> => {
    for (let attempt = 0; attempt < 3 && hook; attempt += 1) {
      const status = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', ...(hook.secret ? { 'x-telegram-bot-api-secret-token': hook.secret } : {}) }, body: JSON.stringify(update) })
        .then((r) => r.status)
        .catch(() => 0);
      webhookDeliveries.push({ updateId: update.update_id, status });
      if (status >= 200 && status < 300) return;
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    }
  };

  const server = await startFakeServer(async (req, res) => {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.path);
    if (!match) return fail(res, 404, 'Not Found');
    if (match[1] !== token) return fail(res, 401, 'Unauthorized');
    let params: Record<string, unknown> = Object.fromEntries(req.query.entries());
    if (req.rawBody) {
      try {
        params = { ...params, ...(JSON.parse(req.rawBody) as Record<string, unknown>) };
      } catch {
        return fail(res, 400, 'Bad Request: invalid JSON');
      }
    }
    switch (match[2]) {
      case 'getMe':
        return json(res, 200, { ok: true, result: { id: 123456789, is_bot: true, first_name: 'Alerts', username } });
      case 'sendMessage': {
        const chatId = String(params['chat_id'] ?? '');
        const text = String(params['text'] ?? '');
        const parseMode = params['parse_mode'] as string | undefined;
        const record = (status: number) => sent.push({ chatId, text, parseMode, status, at: Date.now() });
        if (!chatId) return fail(res, 400, 'Bad Request: chat_id is empty');
        if (blocked.has(chatId)) return record(403), fail(res, 403, 'Forbidden: bot was blocked by the user');
        if (!text.trim()) return record(400), fail(res, 400, 'Bad Request: message text is empty');
        const shown = parseMode === 'HTML' ? plain(text) : text;
        if (shown.length > 4096) return record(400), fail(res, 400, 'Bad Request: message is too long');
        const parseError = parseMode === 'HTML' ? htmlError(text) : undefined;
        if (parseError) return record(400), fail(res, 400, parseError);
        const recent = sent.filter((s) => s.chatId === chatId && s.status === 200 && Date.now() - s.at < 1000).length;
        if (recent >= perChat) return record(429), fail(res, 429, 'Too Many Requests: retry after 1', { retry_after: 1 });
        record(200);
        return json(res, 200, { ok: true, result: { message_id: messageId++, date: Math.floor(Date.now() / 1000), chat: { id: Number(chatId), type: Number(chatId) < 0 ? 'group' : 'private' }, text: shown } });
      }
      case 'getUpdates': {
        if (hook) return fail(res, 409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
        if (polling) return fail(res, 409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
        const offset = params['offset'] === undefined ? undefined : Number(params['offset']);
        if (offset !== undefined) while (pending.length > 0 && pending[0]!.update_id < offset) pending.shift();
        const timeoutS = Math.min(50, Number(params['timeout'] ?? 0));
        if (pending.length === 0 && timeoutS > 0) {
          polling = true;
          await new Promise<void>((resolve) => {
            const done = () => (clearTimeout(timer), waiters.delete(done), resolve());
            const timer = setTimeout(done, timeoutS * 1000);
            waiters.add(done);
            res.on('close', done);
          });
          polling = false;
        }
        return json(res, 200, { ok: true, result: pending.slice(0, Number(params['limit'] ?? 100)) });
      }
      case 'setWebhook':
        if (!params['url']) return fail(res, 400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
        hook = { url: String(params['url']), secret: params['secret_token'] as string | undefined };
        for (const w of [...waiters]) w();
        return json(res, 200, { ok: true, result: true, description: 'Webhook was set' });
      case 'deleteWebhook':
        hook = null;
        return json(res, 200, { ok: true, result: true, description: 'Webhook was deleted' });
      default:
        return fail(res, 404, 'Not Found: method not found');
    }
  });

  return {
    ...server,
    apiBase: server.url,
    token,
    username,
    sent,
    webhookDeliveries,
    userSends: (chatId, text, type = 'private') => {
      updateId += 1;
      const command = /^\/\w+/.exec(text)?.[0];
      const update: Update = {
        update_id: updateId,
        message: {
          message_id: messageId++,
          date: Math.floor(Date.now() / 1000),
          text,
          chat: type === 'private' ? { id: chatId, type, first_name: 'Tester' } : { id: chatId, type, title: 'Test group' },
          from: { id: Math.abs(chatId), is_bot: false, first_name: 'Tester' },
          ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command.length }] } : {}),
        },
      };
      if (hook) void pushToWebhook(update);
      else {
        pending.push(update);
        for (const w of [...waiters]) w();
      }
      return update.update_id;
    },
    block: (chatId) => void blocked.add(String(chatId)),
    delivered: (chatId) => sent.filter((s) => s.chatId === String(chatId) && s.status === 200),
    webhook: () => hook,
  };
}
