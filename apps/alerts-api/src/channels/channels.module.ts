import { Module } from '@nestjs/common';
import { AlertsAccountsModule } from '@paper/alerts-accounts';
import { ChannelHealthService } from './channel-health.service';
import { ChannelTestService } from './channel-test.service';
import { ChannelsController } from './channels.controller';
import { TestMessageLimiter } from './test-message-limiter';

@Module({
  imports: [AlertsAccountsModule],
  controllers: [ChannelsController],
  providers: [ChannelTestService, ChannelHealthService, TestMessageLimiter],
  exports: [ChannelTestService],
})
export class ChannelsModule {}
