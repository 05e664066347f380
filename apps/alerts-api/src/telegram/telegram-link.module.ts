import { Module } from '@nestjs/common';
import { AlertsAccountsModule } from '@paper/alerts-accounts';
import { TelegramLinkController } from './telegram-link.controller';
import { TelegramLinkService } from './telegram-link.service';

@Module({
  imports: [AlertsAccountsModule],
  controllers: [TelegramLinkController],
  providers: [TelegramLinkService],
  exports: [TelegramLinkService],
})
export class TelegramLinkModule {}
