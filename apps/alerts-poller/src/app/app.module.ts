import { type DynamicModule, Module } from '@nestjs/common';
import { createAlertsDataSource } from '@paper/alerts-data';
import { InfraModule, QueueModule } from '@paper/nest-infra';
import { AlertWriter } from '../alerts/alert-writer.service';
import type { AlertsPollerConfig } from '../config/alerts-poller.config';
import { ExchangeStream } from '../polling/exchange-stream';
import { PollProcessor } from '../polling/poll.processor';
import { ProtocolPollService } from '../polling/protocol-poll.service';
import { WalletObserver } from '../polling/wallet-observer';
import { WalletPollService } from '../polling/wallet-poll.service';
import { WatchStore } from '../polling/watch-store';
import { ToolApiClient } from '../tool-api/tool-api.client';

@Module({})
export class AppModule {
  static forRoot(config: AlertsPollerConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfraModule.forRoot({
          config,
          database: { create: createAlertsDataSource, app: 'alerts-poller' },
          redis: config,
        }),
        QueueModule,
      ],
      providers: [
        ToolApiClient,
        ExchangeStream,
        WatchStore,
        WalletObserver,
        AlertWriter,
        WalletPollService,
        ProtocolPollService,
        PollProcessor,
      ],
    };
  }
}
