import { Module } from '@nestjs/common';
import { AlertsAccountsModule } from '@paper/alerts-accounts';
import { AccountsController } from './accounts.controller';

@Module({ imports: [AlertsAccountsModule], controllers: [AccountsController] })
export class AccountsModule {}
