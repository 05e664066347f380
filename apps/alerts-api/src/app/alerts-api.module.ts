import { Module } from '@nestjs/common';
import { AlertsAccountsModule } from '@paper/alerts-accounts';
import { AccountsController } from '../accounts/accounts.controller';
import { AlertsController } from '../alerts/alerts.controller';
import { AccountAuthGuard } from '../auth/account-auth.guard';
import { AccountAuthService } from '../auth/account-auth.service';
import { ChannelTestService } from '../channels/channel-test.service';
import { ChannelsController } from '../channels/channels.controller';
import { TestMessageLimiter } from '../channels/test-message-limiter';
import { DeliveriesController } from '../deliveries/deliveries.controller';
import { DeliveriesService } from '../deliveries/deliveries.service';
import { McpController } from '../mcp/mcp.controller';
import { McpServerFactory } from '../mcp/mcp-server.factory';
import { ProtocolRulesController } from '../protocol-rules/protocol-rules.controller';
import { StatusController } from '../status/status.controller';
import { StatusService } from '../status/status.service';
import { HealthzController } from '../storage/healthz.controller';
import { StorageReadiness } from '../storage/storage-readiness.service';
import { StorageReadyGuard } from '../storage/storage-ready.guard';
import { TelegramLinkController } from '../telegram/telegram-link.controller';
import { TelegramLinkService } from '../telegram/telegram-link.service';
import { UpstreamController } from '../upstream/upstream.controller';
import { UpstreamClient } from '../upstream/upstream-client.service';
import { WatchesController } from '../watches/watches.controller';

/** The alerts endpoints of wallet-alerts-service.md (what the OpenAPI document describes). */
@Module({
  imports: [AlertsAccountsModule],
  controllers: [
    HealthzController,
    StatusController,
    AccountsController,
    WatchesController,
    ChannelsController,
    TelegramLinkController,
    ProtocolRulesController,
    AlertsController,
    DeliveriesController,
    UpstreamController,
    McpController,
  ],
  providers: [
    StorageReadiness,
    StorageReadyGuard,
    AccountAuthService,
    AccountAuthGuard,
    ChannelTestService,
    TestMessageLimiter,
    TelegramLinkService,
    DeliveriesService,
    StatusService,
    UpstreamClient,
    McpServerFactory,
  ],
})
export class AlertsApiModule {}
