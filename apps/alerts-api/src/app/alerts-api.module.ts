import { Module } from '@nestjs/common';
import { AccountsController } from '../accounts/accounts.controller';
import { AccountsService } from '../accounts/accounts.service';
import { AlertsController } from '../alerts/alerts.controller';
import { AlertsService } from '../alerts/alerts.service';
import { AccountAuthGuard } from '../auth/account-auth.guard';
import { AccountAuthService } from '../auth/account-auth.service';
import { ChannelTestService } from '../channels/channel-test.service';
import { ChannelsController } from '../channels/channels.controller';
import { ChannelsService } from '../channels/channels.service';
import { TestMessageLimiter } from '../channels/test-message-limiter';
import { DeliveriesController } from '../deliveries/deliveries.controller';
import { DeliveriesService } from '../deliveries/deliveries.service';
import { McpController } from '../mcp/mcp.controller';
import { McpServerFactory } from '../mcp/mcp-server.factory';
import { ProtocolRulesController } from '../protocol-rules/protocol-rules.controller';
import { ProtocolRulesService } from '../protocol-rules/protocol-rules.service';
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
import { WatchesService } from '../watches/watches.service';

/** The alerts endpoints of wallet-alerts-service.md (what the OpenAPI document describes). */
@Module({
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
    AccountsService,
    WatchesService,
    ChannelsService,
    ChannelTestService,
    TestMessageLimiter,
    TelegramLinkService,
    ProtocolRulesService,
    AlertsService,
    DeliveriesService,
    StatusService,
    UpstreamClient,
    McpServerFactory,
  ],
})
export class AlertsApiModule {}
