import { Inject, Injectable, Logger } from '@nestjs/common';
import { escapeTelegramHtml, sendTelegram } from '@paper/alerts-delivery';
import { APP_CONFIG, REDIS } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { AlertsDispatcherConfig } from '../config/alerts-dispatcher.config';
import type { TelegramUpdate } from './telegram-bot.client';
import { type LinkResult, REPLIES, TelegramLinkService } from './telegram-link.service';

/**
 * Handles bot updates from either source (webhook or long polling): each update id once (a Redis
 * marker for a day), then the reply. A failure before the reply clears the marker so the update can
 * be handled again.
 */
@Injectable()
export class TelegramUpdates {
  private readonly logger = new Logger(TelegramUpdates.name);

  constructor(
    private readonly links: TelegramLinkService,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AlertsDispatcherConfig,
  ) {}

  async process(update: TelegramUpdate): Promise<LinkResult | 'duplicate'> {
    if (!Number.isSafeInteger(update.update_id)) return 'ignored';
    const marker = `${this.config.REDIS_PREFIX}:alerts:telegram:update:${update.update_id}`;
    if ((await this.redis.set(marker, '1', 'EX', 86_400, 'NX')) !== 'OK') return 'duplicate';
    let handled: Awaited<ReturnType<TelegramLinkService['handle']>>;
    try {
      handled = await this.links.handle(update);
    } catch (error) {
      await this.redis.del(marker).catch(() => 0);
      throw error;
    }
    if (handled.result !== 'ignored' && handled.chatId && this.config.TELEGRAM_BOT_TOKEN) {
      const outcome = await sendTelegram(handled.chatId, escapeTelegramHtml(REPLIES[handled.result]), {
        apiBase: this.config.TELEGRAM_API_BASE,
        botToken: this.config.TELEGRAM_BOT_TOKEN,
        timeoutMs: this.config.ALERTS_DELIVERY_TIMEOUT_MS,
      });
      if (outcome.kind !== 'delivered') this.logger.warn(`reply to a Telegram update was not delivered: ${outcome.reason}`);
    }
    return handled.result;
  }
}
