import { Module } from '@nestjs/common';
import { AlertsAccountsModule } from '@paper/alerts-accounts';
import { ProtocolRulesController } from './protocol-rules.controller';

@Module({ imports: [AlertsAccountsModule], controllers: [ProtocolRulesController] })
export class ProtocolRulesModule {}
