import { Inject, Injectable } from '@nestjs/common';
import { type BucketSpec, destinationBuckets, TokenBuckets } from '@paper/alerts-delivery';
import { APP_CONFIG, REDIS } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import { withinTelegramLimit } from './bot-text';

export interface TelegramChat {
  id: number;
  type: string;
  title?: string;
  username?: string;
  first_name?: string;
}

export interface TelegramMessage {
  message_id: number;
  text?: string;
  chat: TelegramChat;
  /** The sender (absent for channel posts). */
  from?: { id: number; is_bot?: boolean; first_name?: string; username?: string };
}

/** The parts of a Telegram Update the bot reads: messages and presses of inline-keyboard buttons. */
export interface TelegramUpdate {
  update_id: number;
  message?: TelegramMessage;
  callback_query?: {
    id: string;
    from: { id: number; first_name?: string; username?: string };
    message?: TelegramMessage;
    data?: string;
  };
}

export interface InlineButton {
  text: string;
  callback_data: string;
}

/** Rows of inline-keyboard buttons under a message. */
export type InlineKeyboard = InlineButton[][];

export interface BotCommand {
  command: string;
  description: string;
}

const UPDATE_TYPES = ['message', 'callback_query'];

export class TelegramApiError extends Error {
  constructor(
    readonly method: string,
    readonly status: number,
    readonly description: string,
    readonly retryAfterS?: number,
  ) {
    super(`Telegram ${method} answered ${status}: ${description}`);
    this.name = 'TelegramApiError';
  }
}

const markup = (keyboard?: InlineKeyboard) => (keyboard ? { reply_markup: { inline_keyboard: keyboard } } : {});

/**
 * Bot API calls for updates, webhooks and the bot's replies (alert messages go through
 * @paper/alerts-delivery's sendTelegram in alerts-dispatcher). A reply to a chat takes its slot from the
 * same Redis buckets as alert deliveries (per chat and for the whole bot), so replies and deliveries
 * together stay within Telegram's limits.
 */
@Injectable()
export class TelegramBotClient {
  private readonly buckets: TokenBuckets;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
  ) {
    this.buckets = new TokenBuckets(redis, config.REDIS_PREFIX);
  }

  get configured(): boolean {
    return Boolean(this.config.TELEGRAM_BOT_TOKEN);
  }

  /**
   * One Bot API call. A flood-wait answer (429 with retry_after up to 10 s) of a reply is waited out
   * and the call repeated, at most twice; getUpdates leaves its backoff to the poller.
   */
  async call<T>(method: string, body: object, timeoutMs = 10_000, signal?: AbortSignal, chatId?: string): Promise<T> {
    const buckets = chatId ? destinationBuckets({ kind: 'telegram', target: chatId }, this.config) : [];
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.slot(buckets);
        return await this.callOnce<T>(method, body, timeoutMs, signal);
      } catch (error) {
        const wait = error instanceof TelegramApiError && error.status === 429 ? error.retryAfterS : undefined;
        if (wait !== undefined) await this.buckets.hold(buckets, wait * 1000);
        if (method === 'getUpdates' || attempt >= 2 || wait === undefined || wait > 10) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      }
    }
  }

  /** Waits for the next free slot of every bucket (none for calls that send nothing to a chat). */
  private async slot(buckets: readonly BucketSpec[]): Promise<void> {
    for (;;) {
      const wait = await this.buckets.take(buckets);
      if (wait === 0) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private async callOnce<T>(method: string, body: object, timeoutMs: number, signal?: AbortSignal): Promise<T> {
    const url = `${this.config.TELEGRAM_API_BASE.replace(/\/+$/, '')}/bot${this.config.TELEGRAM_BOT_TOKEN}/${method}`;
    const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.any(signals),
    });
    const answer = (await response.json().catch(() => ({}))) as {
      ok?: boolean;
      result?: T;
      description?: string;
      parameters?: { retry_after?: number };
    };
    if (!response.ok || answer.ok !== true) {
      throw new TelegramApiError(
        method,
        response.status,
        answer.description ?? `HTTP ${response.status}`,
        answer.parameters?.retry_after,
      );
    }
    return answer.result as T;
  }

  getUpdates(offset: number | undefined, timeoutS: number, signal?: AbortSignal): Promise<TelegramUpdate[]> {
    return this.call<TelegramUpdate[]>(
      'getUpdates',
      { offset, timeout: timeoutS, allowed_updates: UPDATE_TYPES },
      (timeoutS + 10) * 1000,
      signal,
    );
  }

  setWebhook(url: string, secretToken: string): Promise<boolean> {
    return this.call<boolean>('setWebhook', { url, secret_token: secretToken, allowed_updates: UPDATE_TYPES });
  }

  getMe(): Promise<{ id: number; username?: string }> {
    return this.call('getMe', {});
  }

  setMyCommands(commands: readonly BotCommand[], scope?: { type: string }): Promise<boolean> {
    return this.call<boolean>('setMyCommands', { commands, ...(scope ? { scope } : {}) });
  }

  /** An HTML message (cut to Telegram's limit), optionally with an inline keyboard; link previews off. */
  sendMessage(chatId: string, html: string, keyboard?: InlineKeyboard): Promise<{ message_id: number }> {
    return this.call(
      'sendMessage',
      {
        chat_id: chatId,
        text: withinTelegramLimit(html),
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...markup(keyboard),
      },
      this.config.ALERTS_DELIVERY_TIMEOUT_MS,
      undefined,
      chatId,
    );
  }

  editMessageText(chatId: string, messageId: number, html: string, keyboard?: InlineKeyboard): Promise<unknown> {
    return this.call(
      'editMessageText',
      {
        chat_id: chatId,
        message_id: messageId,
        text: withinTelegramLimit(html),
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...markup(keyboard),
      },
      this.config.ALERTS_DELIVERY_TIMEOUT_MS,
      undefined,
      chatId,
    );
  }

  /** Answers a button press, with a notification of at most 200 characters (none without text). */
  answerCallbackQuery(id: string, text: string | undefined, showAlert = false): Promise<boolean> {
    return this.call<boolean>(
      'answerCallbackQuery',
      { callback_query_id: id, ...(text ? { text: text.slice(0, 200) } : {}), show_alert: showAlert },
      this.config.ALERTS_DELIVERY_TIMEOUT_MS,
    );
  }

  deleteWebhook(): Promise<boolean> {
    return this.call<boolean>('deleteWebhook', { drop_pending_updates: false });
  }
}
