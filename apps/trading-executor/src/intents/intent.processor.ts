import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { INTENTS_QUEUE, type SignedIntentPayload } from '@paper/contracts';
import { APP_CONFIG, QueueRegistry } from '@paper/nest-infra';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { IntentExecutionService } from './intent-execution.service';

/** BullMQ worker of the intents queue: validates the payload (QueueRegistry) and hands it to the executor. */
@Injectable()
export class IntentProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly registry: QueueRegistry,
    private readonly execution: IntentExecutionService,
    @Inject(APP_CONFIG) private readonly config: TradingExecutorConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.registry.worker(INTENTS_QUEUE, (_name, data, job) => this.execution.execute(data as SignedIntentPayload, job.timestamp), {
      concurrency: this.config.INTENT_CONCURRENCY,
      lockDuration: this.config.INTENT_LOCK_MS,
    });
  }
}
