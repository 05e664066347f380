import { Module } from '@nestjs/common';
import { AlertsAccountsModule } from '@paper/alerts-accounts';
import { TelegramLinkModule } from '../telegram/telegram-link.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { BotIdentity } from './bot-identity.service';
import { TelegramBotClient } from './telegram-bot.client';
import { TelegramBot } from './telegram-bot.service';
import { TelegramLongPoller } from './telegram-long-poller.service';
import { TelegramUpdates } from './telegram-updates.service';
import { TelegramWebhookController } from './telegram-webhook.controller';

/**
 * The Telegram bot, a front end of the alerts accounts beside the HTTP API and MCP: its updates arrive by
 * long polling or by webhook (POST /telegram/webhook), `/start <code>` redeems link codes, the other
 * commands act through @paper/alerts-accounts.
 */
@Module({
  imports: [AlertsAccountsModule, TelegramLinkModule, UpstreamModule],
  controllers: [TelegramWebhookController],
  providers: [TelegramBotClient, BotIdentity, TelegramBot, TelegramUpdates, TelegramLongPoller],
})
export class TelegramBotModule {}
