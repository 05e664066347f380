import { Module } from '@nestjs/common';
import { AccountsService } from './accounts/accounts.service';
import { AlertsService } from './alerts/alerts.service';
import { ChannelsService } from './channels/channels.service';
import { ProtocolRulesService } from './protocol-rules/protocol-rules.service';
import { TelegramChatsService } from './telegram/telegram-chats.service';
import { WatchesService } from './watches/watches.service';

const SERVICES = [
  AccountsService,
  WatchesService,
  ChannelsService,
  ProtocolRulesService,
  AlertsService,
  TelegramChatsService,
];

/**
 * The account rules, for any app that serves alerts accounts (needs InfraModule's DataSource and config, and
 * QueueModule).
 */
@Module({ providers: SERVICES, exports: SERVICES })
export class AlertsAccountsModule {}
