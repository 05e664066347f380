import { type DeliveryOutcome, networkReason, snippet } from '@paper/webhook-delivery';

export const TELEGRAM_TEXT_LIMIT = 4096;

/** Escapes user text for Telegram's HTML parse mode. */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A Telegram HTML message: a bold title and plain lines, every part escaped, within 4096 characters. */
export function formatTelegramHtml(title: string, lines: readonly string[]): string {
  const budget = TELEGRAM_TEXT_LIMIT - 16;
  const head = `<b>${escapeTelegramHtml(title.slice(0, 200))}</b>`;
  let text = head;
  for (const line of lines) {
    const next = `\n${escapeTelegramHtml(line)}`;
    if (text.length + next.length > budget) {
      text += '\n…';
      break;
    }
    text += next;
  }
  return text;
}

export interface TelegramSenderOptions {
  /** Base of the Bot API (`https://api.telegram.org`); configurable so tests can use a local receiver. */
  apiBase: string;
  botToken: string;
  timeoutMs?: number;
}

interface TelegramAnswer {
  ok?: boolean;
  description?: string;
  parameters?: { retry_after?: number };
}

/** Sends an HTML message to one chat (`sendMessage`) and maps the answer to an outcome. */
export async function sendTelegram(
  chatId: string,
  html: string,
  options: TelegramSenderOptions,
): Promise<DeliveryOutcome> {
  const url = `${options.apiBase.replace(/\/+$/, '')}/bot${options.botToken}/sendMessage`;
  const text =
    html.length > TELEGRAM_TEXT_LIMIT ? html.replace(/<[^>]+>/g, '').slice(0, TELEGRAM_TEXT_LIMIT - 1) + '…' : html;
  const parseMode = html.length > TELEGRAM_TEXT_LIMIT ? undefined : 'HTML';
  let response: Response;
  let answer: TelegramAnswer | undefined;
  try {
    response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        chat_id: chatId,
        text,
        parse_mode: parseMode,
        link_preview_options: { is_disabled: true },
      }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const body = await response.text();
    try {
      answer = JSON.parse(body) as TelegramAnswer;
    } catch {
      answer = { description: snippet(body) };
    }
  } catch (error) {
    return { kind: 'retry', reason: networkReason(error) };
  }
  const status = response.status;
  const description = answer?.description ?? `HTTP ${status}`;
  if (status >= 200 && status < 300 && answer?.ok !== false) return { kind: 'delivered', status };
  if (status === 429) {
    const seconds = answer?.parameters?.retry_after;
    return {
      kind: 'retry',
      status,
      reason: 'Telegram rate limit',
      retryAfterMs: typeof seconds === 'number' ? seconds * 1000 : undefined,
    };
  }
  if (status === 403) return { kind: 'disable', status, reason: `Telegram answered 403: ${description}` };
  if (status === 400 && /chat not found/i.test(description))
    return { kind: 'disable', status, reason: `Telegram answered 400: ${description}` };
  if (status === 408 || status >= 500)
    return { kind: 'retry', status, reason: `Telegram answered ${status}: ${description}` };
  return { kind: 'failed', status, reason: `Telegram answered ${status}: ${description}` };
}
