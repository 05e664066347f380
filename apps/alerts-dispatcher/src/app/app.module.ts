import { type DynamicModule, Module } from '@nestjs/common';
import { createAlertsDataSource } from '@paper/alerts-data';
import { InfraModule, QueueModule } from '@paper/nest-infra';
import type { AlertsDispatcherConfig } from '../config/alerts-dispatcher.config';
import { DeliverySender } from '../deliveries/delivery-sender.service';
import { DeliveryStore } from '../deliveries/delivery-store';
import { DeliveryAttempts } from '../deliveries/delivery-attempts.service';
import { DeliveryProcessor } from '../deliveries/delivery.processor';

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
      ],
      providers: [DeliveryStore, DeliverySender, DeliveryAttempts, DeliveryProcessor],
    };
  }
}
