import { Module } from '@nestjs/common';
import { IntentEngine } from './intent-engine.service';
import { IntentExpiryService } from './intent-expiry.service';
import { IntentProcessor } from './intent.processor';
import { IntentResultsPublisher } from './intent-results.publisher';

@Module({
  providers: [IntentEngine, IntentResultsPublisher, IntentProcessor, IntentExpiryService],
  exports: [IntentEngine, IntentExpiryService],
})
export class IntentsModule {}
