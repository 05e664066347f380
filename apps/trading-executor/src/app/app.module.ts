import { type DynamicModule, Module } from '@nestjs/common';
import { createExchangeDataSource } from '@paper/exchange-data';
import { InfraModule, QueueModule } from '@paper/nest-infra';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { DepositsModule } from '../deposits/deposits.module';
import { IntentsModule } from '../intents/intents.module';
import { LiquidationsModule } from '../liquidations/liquidations.module';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { DevOwnerActionsModule } from '../owner-actions/owner-actions.module';
import { InboxModule } from '../inbox/inbox.module';
import { PricesModule } from '../prices/prices.module';
import { SessionKeysModule } from '../session-keys/session-keys.module';

/** The dev endpoints (funding, owner actions) exist only in paper mode outside production. */
export function devFundingEnabled(config: Pick<TradingExecutorConfig, 'PAPER_MODE' | 'NODE_ENV'>): boolean {
  return config.PAPER_MODE && config.NODE_ENV !== 'production';
}

@Module({})
export class AppModule {
  static forRoot(config: TradingExecutorConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfraModule.forRoot({
          config,
          database: { create: createExchangeDataSource, app: 'trading-executor' },
          redis: config,
        }),
        QueueModule,
        PricesModule.forRoot(config),
        SessionKeysModule,
        IntentsModule,
        LiquidationsModule,
        DepositsModule.forRoot(devFundingEnabled(config)),
        DevOwnerActionsModule.forRoot(devFundingEnabled(config)),
        InboxModule,
        MaintenanceModule,
      ],
    };
  }
}
