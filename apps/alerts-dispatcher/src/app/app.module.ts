import { type DynamicModule, Module } from '@nestjs/common';
import { AlertsAccountsModule } from '@paper/alerts-accounts';
import { createAlertsDataSource } from '@paper/alerts-data';
import { InfraModule, QueueModule } from '@paper/nest-infra';
import type { AlertsDispatcherConfig } from '../config/alerts-dispatcher.config';
import { BotIdentity } from '../bot/bot-identity.service';
import { TelegramBot } from '../bot/telegram-bot.service';
import { DeliverySender } from '../deliveries/delivery-sender.service';
import { DeliveryStore } from '../deliveries/delivery-store';
import { DeliveryAttempts } from '../deliveries/delivery-attempts.service';
import { DeliveryProcessor } from '../deliveries/delivery.processor';
import { TelegramBotClient } from '../telegram/telegram-bot.client';
import { TelegramLinkService } from '../telegram/telegram-link.service';
import { TelegramLongPoller } from '../telegram/telegram-long-poller.service';
import { TelegramUpdates } from '../telegram/telegram-updates.service';
import { TelegramWebhookController } from '../telegram/telegram-webhook.controller';

@Module({})
export class AppModule {
  static forRoot(config: AlertsDispatcherConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfraModule.forRoot({
          config,
          database: { create: createAlertsDataSource, app: 'alerts-dispatcher' },
          redis: config,
        }),
        QueueModule,
        AlertsAccountsModule,
      ],
      controllers: [TelegramWebhookController],
      providers: [
        DeliveryStore,
        DeliverySender,
        DeliveryAttempts,
        DeliveryProcessor,
        TelegramBotClient,
        BotIdentity,
        TelegramBot,
        TelegramLinkService,
        TelegramUpdates,
        TelegramLongPoller,
      ],
    };
  }
}
