import { Module } from '@nestjs/common';
import { IntentExpiryService } from './intent-expiry.service';
import { IntentExecutionService } from './intent-execution.service';
import { IntentProcessor } from './intent.processor';

@Module({ providers: [IntentExecutionService, IntentProcessor, IntentExpiryService], exports: [IntentExecutionService, IntentExpiryService] })
export class IntentsModule {}
