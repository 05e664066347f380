import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import type { AlertsDispatcherConfig } from '../config/alerts-dispatcher.config';

/** The parts of a Telegram Update the bot reads. */
export interface TelegramUpdate {
  update_id: number;
  message?: {
    message_id: number;
    text?: string;
    chat: { id: number; type: string; title?: string; username?: string; first_name?: string };
  };
}

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

/** Bot API calls for updates and webhooks (alert messages go through @paper/alerts-delivery's sendTelegram). */
@Injectable()
export class TelegramBotClient {
  constructor(@Inject(APP_CONFIG) private readonly config: AlertsDispatcherConfig) {}

  get configured(): boolean {
    return Boolean(this.config.TELEGRAM_BOT_TOKEN);
  }

  async call<T>(method: string, body: object, timeoutMs = 10_000, signal?: AbortSignal): Promise<T> {
    const url = `${this.config.TELEGRAM_API_BASE.replace(/\/+$/, '')}/bot${this.config.TELEGRAM_BOT_TOKEN}/${method}`;
    const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.any(signals),
    });
    const answer = (await response.json().catch(() => ({}))) as { ok?: boolean; result?: T; description?: string; parameters?: { retry_after?: number } };
    if (!response.ok || answer.ok !== true) {
      throw new TelegramApiError(method, response.status, answer.description ?? `HTTP ${response.status}`, answer.parameters?.retry_after);
    }
    return answer.result as T;
  }

  getUpdates(offset: number | undefined, timeoutS: number, signal?: AbortSignal): Promise<TelegramUpdate[]> {
    return this.call<TelegramUpdate[]>('getUpdates', { offset, timeout: timeoutS, allowed_updates: ['message'] }, (timeoutS + 10) * 1000, signal);
  }

  setWebhook(url: string, secretToken: string): Promise<boolean> {
    return this.call<boolean>('setWebhook', { url, secret_token: secretToken, allowed_updates: ['message'] });
  }

  deleteWebhook(): Promise<boolean> {
    return this.call<boolean>('deleteWebhook', { drop_pending_updates: false });
  }
}
