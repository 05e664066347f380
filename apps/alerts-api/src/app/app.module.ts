import { type DynamicModule, Module } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { createAlertsDataSource } from '@paper/alerts-data';
import { InfraModule, QueueModule } from '@paper/nest-infra';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import { AlertsApiModule } from './alerts-api.module';
import { alertsValidationPipe } from '../validation/validation.pipe';

@Module({})
export class AppModule {
  static forRoot(config: AlertsApiConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfraModule.forRoot({
          config,
          database: {
            create: createAlertsDataSource,
            app: 'alerts-api',
            // Ready without the schema: until it is applied the API answers 503 service_initializing itself.
            options: { requireMigrations: false },
          },
          redis: config,
        }),
        QueueModule,
        AlertsApiModule,
      ],
      providers: [{ provide: APP_PIPE, useFactory: alertsValidationPipe }],
    };
  }
}
