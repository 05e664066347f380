import { Inject, Injectable } from '@nestjs/common';
import { ChannelEntity, TelegramLinkCodeEntity } from '@paper/alerts-data';
import { ALERTS_LIMITS } from '@paper/alerts-delivery';
import { AlertsErrorCode } from '@paper/contracts';
import { APP_CONFIG } from '@paper/nest-infra';
import { randomBytes } from 'node:crypto';
import { DataSource, LessThan } from 'typeorm';
import { AlertsException, ChannelsService } from '@paper/alerts-accounts';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import type { TelegramLinkView } from './telegram-link.dto';

/** Mints single-use Telegram link codes (alerts-dispatcher consumes them when the bot receives `/start <code>`). */
@Injectable()
export class TelegramLinkService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
    private readonly channels: ChannelsService,
  ) {}

  async mint(accountId: string): Promise<TelegramLinkView> {
    const bot = this.config.TELEGRAM_BOT_USERNAME;
    if (!bot || !this.config.TELEGRAM_BOT_TOKEN) {
      throw new AlertsException(
        AlertsErrorCode.TelegramNotConfigured,
        'Telegram delivery is not configured on this service; use a Discord or webhook channel.',
      );
    }
    this.channels.assertBelowLimit(await this.dataSource.getRepository(ChannelEntity).countBy({ accountId }));
    const repo = this.dataSource.getRepository(TelegramLinkCodeEntity);
    await repo.delete({ accountId, expiresAt: LessThan(new Date()) });
    const code = randomBytes(24).toString('base64url');
    const minutes = ALERTS_LIMITS.telegramLinkCodeMinutes;
    const expiresAt = new Date(Date.now() + minutes * 60_000);
    await repo.insert({ code, accountId, expiresAt, usedAt: null });
    return {
      code,
      deepLink: `https://t.me/${bot}?start=${code}`,
      botUsername: bot,
      expiresAt: expiresAt.toISOString(),
      instructions: `Send /start ${code} to @${bot} within ${minutes} minutes (or open the deep link). The code works once.`,
    };
  }
}
