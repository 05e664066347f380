import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { AlertsModule } from '../alerts/alerts.module';
import { AuthModule } from '../auth/auth.module';
import { ChannelsModule } from '../channels/channels.module';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { McpModule } from '../mcp/mcp.module';
import { ProtocolRulesModule } from '../protocol-rules/protocol-rules.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { StatusModule } from '../status/status.module';
import { StorageModule } from '../storage/storage.module';
import { TelegramBotModule } from '../telegram-bot/telegram-bot.module';
import { TelegramLinkModule } from '../telegram/telegram-link.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { WatchesModule } from '../watches/watches.module';

/** The feature modules whose routes the OpenAPI document describes (wallet-alerts-service.md). */
export const ALERTS_API_FEATURES = [
  StorageModule,
  StatusModule,
  AccountsModule,
  WatchesModule,
  ChannelsModule,
  TelegramLinkModule,
  ProtocolRulesModule,
  AlertsModule,
  DeliveriesModule,
  UpstreamModule,
  McpModule,
];

/**
 * The alerts endpoints (one feature module per resource) and the Telegram bot, the front ends of the
 * account rules from @paper/alerts-accounts.
 */
@Module({ imports: [AuthModule, RateLimitModule, IdempotencyModule, ...ALERTS_API_FEATURES, TelegramBotModule] })
export class AlertsApiModule {}
