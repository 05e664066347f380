import { Module } from '@nestjs/common';
import { AlertsAccountsModule } from '@paper/alerts-accounts';
import { WatchesController } from './watches.controller';

@Module({ imports: [AlertsAccountsModule], controllers: [WatchesController] })
export class WatchesModule {}
