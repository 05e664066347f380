import { Module } from '@nestjs/common';
import { AlertsAccountsModule } from '@paper/alerts-accounts';
import { ChannelsModule } from '../channels/channels.module';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { StatusModule } from '../status/status.module';
import { TelegramLinkModule } from '../telegram/telegram-link.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { McpController } from './mcp.controller';
import { McpServerFactory } from './mcp-server.factory';

/** `/mcp`: the account, watch, channel, alert and exchange tools over the features' services. */
@Module({
  imports: [AlertsAccountsModule, ChannelsModule, TelegramLinkModule, DeliveriesModule, StatusModule, UpstreamModule],
  controllers: [McpController],
  providers: [McpServerFactory],
})
export class McpModule {}
