import { Module } from '@nestjs/common';
import { IntentEngine } from './intent-engine.service';
import { IntentExecutionService } from './intent-execution.service';
import { IntentExpiryService } from './intent-expiry.service';
import { IntentProcessor } from './intent.processor';
import { IntentResultsPublisher } from './intent-results.publisher';

@Module({
  providers: [IntentEngine, IntentResultsPublisher, IntentExecutionService, IntentProcessor, IntentExpiryService],
  exports: [IntentEngine, IntentExecutionService, IntentExpiryService],
})
export class IntentsModule {}
