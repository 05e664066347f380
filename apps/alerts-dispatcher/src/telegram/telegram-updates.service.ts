import { Inject, Injectable, Logger } from '@nestjs/common';
import { escapeTelegramHtml, sendTelegram } from '@paper/alerts-delivery';
import { APP_CONFIG, REDIS } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { AlertsDispatcherConfig } from '../config/alerts-dispatcher.config';
import type { TelegramUpdate } from './telegram-bot.client';
import { type LinkResult, REPLIES, TelegramLinkService } from './telegram-link.service';

/**
 * Handles bot updates from either source (webhook or long polling), crash-safe: an update is marked
 * handled (a Redis marker kept for a day) only after its link committed and the reply was sent. An
 * update seen again before that (a crash, a webhook redelivery, a long poll that had not stored its
 * offset) is handled again; linking is idempotent, so it answers `already_linked` and creates nothing.
 * An error leaves the update unmarked, so Telegram (webhook) or the long poller delivers it again.
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
    if ((await this.redis.exists(marker)) === 1) return 'duplicate';
    const handled = await this.links.handle(update);
    if (handled.result !== 'ignored' && handled.chatId && this.config.TELEGRAM_BOT_TOKEN) {
      const outcome = await sendTelegram(handled.chatId, escapeTelegramHtml(REPLIES[handled.result]), {
        apiBase: this.config.TELEGRAM_API_BASE,
        botToken: this.config.TELEGRAM_BOT_TOKEN,
        timeoutMs: this.config.ALERTS_DELIVERY_TIMEOUT_MS,
      });
      if (outcome.kind !== 'delivered') this.logger.warn(`reply to a Telegram update was not delivered: ${outcome.reason}`);
    }
    await this.redis.set(marker, '1', 'EX', 86_400);
    return handled.result;
  }
}
