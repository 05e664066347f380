import { Module } from '@nestjs/common';
import { AlertsAccountsModule } from '@paper/alerts-accounts';
import { AlertsController } from './alerts.controller';

@Module({ imports: [AlertsAccountsModule], controllers: [AlertsController] })
export class AlertsModule {}
