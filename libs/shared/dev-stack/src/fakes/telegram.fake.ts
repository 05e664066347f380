import type { ServerResponse } from 'node:http';
import { type FakeServer, json, startFakeServer } from './http-fake';

export interface InlineButton {
  text: string;
  callback_data: string;
}

export interface TelegramSent {
  chatId: string;
  text: string;
  parseMode?: string;
  /** Inline keyboard sent with the message (reply_markup.inline_keyboard). */
  keyboard?: InlineButton[][];
  /** Id of the message when it was accepted. */
  messageId?: number;
  status: number;
  at: number;
}

export interface TelegramEdit {
  chatId: string;
  messageId: number;
  text: string;
  keyboard?: InlineButton[][];
  status: number;
}

interface Chat {
  id: number;
  type: string;
  first_name?: string;
  title?: string;
}

interface Message {
  message_id: number;
  date: number;
  text: string;
  chat: Chat;
  from: { id: number; is_bot: false; first_name: string };
  entities?: { type: string; offset: number; length: number }[];
}

interface Update {
  update_id: number;
  message?: Message;
  callback_query?: {
    id: string;
    from: { id: number; is_bot: false; first_name: string };
    message: Omit<Message, 'from'>;
    chat_instance: string;
    data: string;
  };
}

export interface TelegramFake extends FakeServer {
  /** Value for TELEGRAM_API_BASE. */
  apiBase: string;
  token: string;
  username: string;
  sent: TelegramSent[];
  /**
   * A user types `text` in `chatId` (a private chat unless `type` says otherwise; in a group `fromId` is the member);
   * returns the update id.
   */
  userSends(chatId: number, text: string, type?: 'private' | 'group', fromId?: number): number;
  /**
   * A user presses an inline-keyboard button (its callback_data) under a message the bot sent; returns the update id.
   */
  userPresses(chatId: number, messageId: number, data: string, fromId?: number): number;
  /** The user blocked the bot: sendMessage to the chat answers 403. */
  block(chatId: number): void;
  /** Messages accepted for a chat. */
  delivered(chatId: number | string): TelegramSent[];
  webhook(): { url: string; secret?: string } | null;
  /** Updates POSTed to the registered webhook and the status it answered. */
  webhookDeliveries: { updateId: number; status: number }[];
  /** editMessageText calls. */
  edits: TelegramEdit[];
  /** answerCallbackQuery calls. */
  callbackAnswers: { id: string; text?: string; showAlert: boolean }[];
  /** The command menu last registered with setMyCommands. */
  commands(): { command: string; description: string }[];
  /** The message a chat shows now (its text and keyboard after edits). */
  message(chatId: number | string, messageId: number): { text: string; keyboard?: InlineButton[][] } | undefined;
  /** How many getUpdates calls were answered. */
  getUpdatesCalls(): number;
}

const TAG =
  /<\/?(b|strong|i|em|u|ins|s|strike|del|code|pre|tg-spoiler|blockquote)>|<a href="[^"<>]*">|<\/a>|<span class="tg-spoiler">|<\/span>/g;
const ENTITY = /&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);/g;

/** Telegram's HTML parse mode refuses unknown tags, stray `<`, `>`, `&` and tags left open or closed unopened. */
function htmlError(text: string): string | undefined {
  const stripped = text.replace(TAG, '').replace(ENTITY, '');
  if (/[<>&]/.test(stripped)) return "Bad Request: can't parse entities: unsupported start tag or unescaped character";
  const open: string[] = [];
  for (const match of text.matchAll(TAG)) {
    const tag = match[0];
    const name = /^<\/?([a-z-]+)/.exec(tag)![1]!;
    if (!tag.startsWith('</')) {
      open.push(name);
      continue;
    }
    const expected = open.pop();
    if (expected !== name) {
      const at = Buffer.byteLength(text.slice(0, match.index));
      return expected
        ? `Bad Request: can't parse entities: Unmatched end tag at byte offset ${at}, expected "</${expected}>", found "</${name}>"`
        : `Bad Request: can't parse entities: Unmatched end tag at byte offset ${at}, found "</${name}>"`;
    }
  }
  if (open.length > 0)
    return `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${open.at(-1)}"`;
  return undefined;
}

/** Telegram's checks of reply_markup.inline_keyboard: rows of buttons with text and 1-64 bytes of callback_data. */
function keyboardError(markup: unknown): string | undefined {
  if (markup === undefined) return undefined;
  const rows = (markup as { inline_keyboard?: unknown }).inline_keyboard;
  if (!Array.isArray(rows) || rows.some((row) => !Array.isArray(row)))
    return 'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays';
  for (const button of rows.flat() as { text?: unknown; callback_data?: unknown }[]) {
    if (typeof button.text !== 'string' || !button.text)
      return 'Bad Request: text buttons are unallowed in the inline keyboard';
    if (
      typeof button.callback_data !== 'string' ||
      Buffer.byteLength(button.callback_data) < 1 ||
      Buffer.byteLength(button.callback_data) > 64
    )
      return 'Bad Request: BUTTON_DATA_INVALID';
  }
  return undefined;
}

/** Plain text of an HTML message, as Telegram stores it. */
function plain(text: string): string {
  return text
    .replace(TAG, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** What the chat shows for a text in a parse mode. */
const shown_ = (text: string, parseMode: string | undefined) => (parseMode === 'HTML' ? plain(text) : text);

const chatOf = (id: number, type: string): Chat =>
  type === 'private' ? { id, type, first_name: 'Tester' } : { id, type, title: 'Test group' };

/**
 * A Telegram Bot API server for one bot: sendMessage (HTML validation, 4096 characters after entity parsing,
 * 1-64 bytes of callback_data, 403 for a chat that blocked the bot, 429 with retry_after when a chat or the whole
 * bot is flooded), getUpdates with offset and long-poll timeout, setWebhook / deleteWebhook (updates POSTed with
 * X-Telegram-Bot-Api-Secret-Token), getMe.
 */
export async function startTelegramFake(
  options: {
    token?: string;
    username?: string;
    perChatPerSecond?: number;
    /** Messages per second the bot may send over all chats (Telegram's is about 30). */
    globalPerSecond?: number;
    privateChatsNeedStart?: boolean;
  } = {},
): Promise<TelegramFake> {
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
  const global = options.globalPerSecond ?? 30;
  let updatesCalls = 0;
  const edits: TelegramEdit[] = [];
  const callbackAnswers: { id: string; text?: string; showAlert: boolean }[] = [];
  const openQueries = new Set<string>();
  const shown = new Map<string, { text: string; keyboard?: InlineButton[][] }>();
  const startedPrivately = new Set<string>();
  let menu: { command: string; description: string }[] = [];
  let queryId = 1;

  const enqueue = (update: Update): number => {
    if (hook) void pushToWebhook(update);
    else {
      pending.push(update);
      for (const w of [...waiters]) w();
    }
    return update.update_id;
  };

  const fail = (res: ServerResponse, code: number, description: string, parameters?: object) =>
    json(res, code, { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });

  const pushToWebhook = async (update: Update): Promise<void> => {
    for (let attempt = 0; attempt < 3 && hook; attempt += 1) {
      const status = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(hook.secret ? { 'x-telegram-bot-api-secret-token': hook.secret } : {}),
        },
        body: JSON.stringify(update),
      })
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
        const markup = params['reply_markup'] as { inline_keyboard?: InlineButton[][] } | undefined;
        const record = (status: number, messageId?: number) =>
          sent.push({ chatId, text, parseMode, keyboard: markup?.inline_keyboard, messageId, status, at: Date.now() });
        if (!chatId) return fail(res, 400, 'Bad Request: chat_id is empty');
        if (blocked.has(chatId)) return (record(403), fail(res, 403, 'Forbidden: bot was blocked by the user'));
        if (options.privateChatsNeedStart && Number(chatId) > 0 && !startedPrivately.has(chatId))
          return (record(403), fail(res, 403, "Forbidden: bot can't initiate conversation with a user"));
        const markupError = keyboardError(markup);
        if (markupError) return (record(400), fail(res, 400, markupError));
        if (!text.trim()) return (record(400), fail(res, 400, 'Bad Request: message text is empty'));
        const visible = shown_(text, parseMode);
        if (visible.length > 4096) return (record(400), fail(res, 400, 'Bad Request: message is too long'));
        const parseError = parseMode === 'HTML' ? htmlError(text) : undefined;
        if (parseError) return (record(400), fail(res, 400, parseError));
        const recent = sent.filter((s) => s.chatId === chatId && s.status === 200 && Date.now() - s.at < 1000).length;
        const overall = sent.filter((s) => s.status === 200 && Date.now() - s.at < 1000).length;
        if (recent >= perChat || overall >= global)
          return (record(429), fail(res, 429, 'Too Many Requests: retry after 1', { retry_after: 1 }));
        const id = messageId++;
        record(200, id);
        shown.set(`${chatId}:${id}`, { text: visible, keyboard: markup?.inline_keyboard });
        return json(res, 200, {
          ok: true,
          result: {
            message_id: id,
            date: Math.floor(Date.now() / 1000),
            chat: { id: Number(chatId), type: Number(chatId) < 0 ? 'group' : 'private' },
            text: visible,
          },
        });
      }
      case 'getUpdates': {
        updatesCalls += 1;
        if (hook)
          return fail(
            res,
            409,
            "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook " +
              'first',
          );
        if (polling)
          return fail(
            res,
            409,
            'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
          );
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
      case 'editMessageText': {
        const chatId = String(params['chat_id'] ?? '');
        const id = Number(params['message_id']);
        const text = String(params['text'] ?? '');
        const parseMode = params['parse_mode'] as string | undefined;
        const markup = params['reply_markup'] as { inline_keyboard?: InlineButton[][] } | undefined;
        const record = (status: number) =>
          edits.push({ chatId, messageId: id, text, keyboard: markup?.inline_keyboard, status });
        const current = shown.get(`${chatId}:${id}`);
        if (!current) return (record(400), fail(res, 400, 'Bad Request: message to edit not found'));
        const visible = shown_(text, parseMode);
        if (visible.length > 4096) return (record(400), fail(res, 400, 'Bad Request: MESSAGE_TOO_LONG'));
        const parseError = parseMode === 'HTML' ? htmlError(text) : undefined;
        if (parseError) return (record(400), fail(res, 400, parseError));
        const markupError = keyboardError(markup);
        if (markupError) return (record(400), fail(res, 400, markupError));
        if (current.text === visible && JSON.stringify(current.keyboard) === JSON.stringify(markup?.inline_keyboard)) {
          return (
            record(400),
            fail(
              res,
              400,
              'Bad Request: message is not modified: specified new message content and reply markup are exactly ' +
                'the same as a current content and reply markup of the message',
            )
          );
        }
        record(200);
        shown.set(`${chatId}:${id}`, { text: visible, keyboard: markup?.inline_keyboard });
        return json(res, 200, { ok: true, result: { message_id: id, chat: { id: Number(chatId) }, text: visible } });
      }
      case 'answerCallbackQuery': {
        const id = String(params['callback_query_id'] ?? '');
        if (!openQueries.delete(id))
          return fail(res, 400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
        const text = params['text'] as string | undefined;
        if (text !== undefined && text.length > 200) return fail(res, 400, 'Bad Request: MESSAGE_TOO_LONG');
        callbackAnswers.push({ id, text, showAlert: params['show_alert'] === true });
        return json(res, 200, { ok: true, result: true });
      }
      case 'setMyCommands': {
        const commands = params['commands'];
        if (!Array.isArray(commands) || commands.length > 100)
          return fail(res, 400, 'Bad Request: commands must be an array of at most 100 BotCommand');
        for (const c of commands as { command?: unknown; description?: unknown }[]) {
          if (typeof c.command !== 'string' || !/^[a-z0-9_]{1,32}$/.test(c.command))
            return fail(res, 400, 'Bad Request: BOT_COMMAND_INVALID');
          if (typeof c.description !== 'string' || c.description.length < 1 || c.description.length > 256)
            return fail(res, 400, 'Bad Request: BOT_COMMAND_DESCRIPTION_INVALID');
        }
        menu = (commands as { command: string; description: string }[]).map(({ command, description }) => ({
          command,
          description,
        }));
        return json(res, 200, { ok: true, result: true });
      }
      case 'setWebhook':
        if (!params['url'])
          return fail(res, 400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
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
    userSends: (chatId, text, type = 'private', fromId) => {
      updateId += 1;
      if (type === 'private') startedPrivately.add(String(chatId));
      const command = /^\/\w+(@\w+)?/.exec(text)?.[0];
      return enqueue({
        update_id: updateId,
        message: {
          message_id: messageId++,
          date: Math.floor(Date.now() / 1000),
          text,
          chat: chatOf(chatId, type),
          from: { id: fromId ?? Math.abs(chatId), is_bot: false, first_name: 'Tester' },
          ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command.length }] } : {}),
        },
      });
    },
    userPresses: (chatId, messageId, data, fromId) => {
      const current = shown.get(`${chatId}:${messageId}`);
      if (!current?.keyboard?.flat().some((b) => b.callback_data === data))
        throw new Error(`message ${messageId} in chat ${chatId} has no button ${data}`);
      updateId += 1;
      const id = String(queryId++);
      openQueries.add(id);
      return enqueue({
        update_id: updateId,
        callback_query: {
          id,
          from: { id: fromId ?? Math.abs(chatId), is_bot: false, first_name: 'Tester' },
          message: {
            message_id: messageId,
            date: Math.floor(Date.now() / 1000),
            text: current.text,
            chat: chatOf(chatId, chatId < 0 ? 'group' : 'private'),
          },
          chat_instance: String(chatId),
          data,
        },
      });
    },
    edits,
    callbackAnswers,
    commands: () => menu,
    message: (chatId, id) => shown.get(`${chatId}:${id}`),
    getUpdatesCalls: () => updatesCalls,
    block: (chatId) => void blocked.add(String(chatId)),
    delivered: (chatId) => sent.filter((s) => s.chatId === String(chatId) && s.status === 200),
    webhook: () => hook,
  };
}
