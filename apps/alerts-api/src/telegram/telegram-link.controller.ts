import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ChannelEntity, TelegramLinkCodeEntity } from '@paper/alerts-data';
import { AlertsErrorCode } from '@paper/contracts';
import { APP_CONFIG } from '@paper/nest-infra';
import { randomBytes } from 'node:crypto';
import { DataSource, LessThan } from 'typeorm';
import { AlertsException } from '../app/alerts.exception';
import { ApiErrors } from '../app/error-body.dto';
import { Authenticated, CurrentAccount } from '../auth/account-auth.guard';
import { ChannelsService } from '../channels/channels.service';
import type { AlertsApiConfig } from '../config/alerts-api.config';

export const TELEGRAM_LINK_MINUTES = 15;

class TelegramLinkView {
  @ApiProperty({ description: 'Single-use code (32 characters of A-Za-z0-9_-)', example: 'hV3k2m9Q-x_0aB7cD1eF2gH3iJ4kL5mN' }) code!: string;
  @ApiProperty({ description: 'Opens the bot with the code prefilled', example: 'https://t.me/paper_alerts_bot?start=hV3k2m9Q-x_0aB7cD1eF2gH3iJ4kL5mN' }) deepLink!: string;
  @ApiProperty({ example: 'paper_alerts_bot' }) botUsername!: string;
  @ApiProperty({ format: 'date-time', description: '15 minutes after minting' }) expiresAt!: string;
  @ApiProperty({ example: 'Send /start hV3k… to @paper_alerts_bot within 15 minutes.' }) instructions!: string;
}

@ApiTags('channels')
@Authenticated()
@Controller('api/telegram')
export class TelegramLinkController {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
    private readonly channels: ChannelsService,
  ) {}

  @Post('link')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createTelegramLink', summary: 'Mint a single-use code (valid 15 minutes) that links a Telegram chat as a channel when sent to the bot as /start <code>' })
  @ApiCreatedResponse({ type: TelegramLinkView })
  @ApiErrors(409)
  async link(@CurrentAccount() accountId: string): Promise<TelegramLinkView> {
    const bot = this.config.TELEGRAM_BOT_USERNAME;
    if (!bot || !this.config.TELEGRAM_BOT_TOKEN) {
      throw new AlertsException(AlertsErrorCode.TelegramNotConfigured, 'Telegram delivery is not configured on this service; use a Discord or webhook channel.');
    }
    this.channels.assertBelowLimit(await this.dataSource.getRepository(ChannelEntity).countBy({ accountId }));
    const repo = this.dataSource.getRepository(TelegramLinkCodeEntity);
    await repo.delete({ accountId, expiresAt: LessThan(new Date()) });
    const code = randomBytes(24).toString('base64url');
    const expiresAt = new Date(Date.now() + TELEGRAM_LINK_MINUTES * 60_000);
    await repo.insert({ code, accountId, expiresAt, usedAt: null });
    return {
      code,
      deepLink: `https://t.me/${bot}?start=${code}`,
      botUsername: bot,
      expiresAt: expiresAt.toISOString(),
      instructions: `Send /start ${code} to @${bot} within ${TELEGRAM_LINK_MINUTES} minutes (or open the deep link). The code works once.`,
    };
  }
}
