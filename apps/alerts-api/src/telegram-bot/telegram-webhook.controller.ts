import { Body, Controller, Headers, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { AlertsErrorCode, CodedError } from '@paper/contracts';
import { APP_CONFIG } from '@paper/nest-infra';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import { StorageReadyGuard } from '../storage/storage-ready.guard';
import type { TelegramUpdate } from './telegram-bot.client';
import { TelegramUpdates } from './telegram-updates.service';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * Bot updates by webhook (TELEGRAM_UPDATES_MODE=webhook): Telegram POSTs each update here with the
 * secret given to setWebhook in `X-Telegram-Bot-Api-Secret-Token`. The public Ingress must route
 * `/telegram/webhook` to alerts-api.
 */
@Controller('telegram')
export class TelegramWebhookController {
  constructor(
    private readonly updates: TelegramUpdates,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
  ) {}

  @Post('webhook')
  @HttpCode(200)
  // 503 until the alerts schema is applied: Telegram delivers the update again later.
  @UseGuards(StorageReadyGuard)
  async webhook(
    @Headers('x-telegram-bot-api-secret-token') token: string | undefined,
    @Body() body: unknown,
  ): Promise<{ ok: true }> {
    const secret = this.config.TELEGRAM_WEBHOOK_SECRET;
    if (this.config.TELEGRAM_UPDATES_MODE !== 'webhook' || !secret || !this.config.TELEGRAM_BOT_TOKEN) {
      throw new CodedError(
        AlertsErrorCode.NotFound,
        404,
        'Telegram updates are not received by webhook on this service.',
      );
    }
    if (!token || !timingSafeEqual(digest(token), digest(secret))) {
      throw new CodedError(
        AlertsErrorCode.Unauthorized,
        401,
        'The X-Telegram-Bot-Api-Secret-Token header is missing or wrong.',
      );
    }
    const update = body as TelegramUpdate | undefined;
    if (!update || typeof update !== 'object' || typeof update.update_id !== 'number') {
      throw new CodedError(
        AlertsErrorCode.ValidationFailed,
        400,
        'The body must be a Telegram Update object with an update_id.',
      );
    }
    await this.updates.process(update);
    return { ok: true };
  }
}
