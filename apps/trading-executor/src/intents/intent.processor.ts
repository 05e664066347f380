import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { INTENTS_QUEUE } from '@paper/contracts';
import { APP_CONFIG, QueueRegistry } from '@paper/nest-infra';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { IntentExecutionService } from './intent-execution.service';

/**
 * BullMQ worker of the intents queue. A job is the wake-up of an accepted intent: it starts a batch (when
 * a slot is free) and completes with the intent's stored result once a batch of any replica ran it, so
 * callers can wait on the job. Jobs of a whole batch wait together, so the worker takes as many at once.
 */
@Injectable()
export class IntentProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly registry: QueueRegistry,
    private readonly execution: IntentExecutionService,
    @Inject(APP_CONFIG) private readonly config: TradingExecutorConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.registry.worker(INTENTS_QUEUE, { 'execute-intent': (data) => this.execution.wakeUp(data) }, {
      concurrency: Math.max(this.config.INTENT_BATCH_MAX, this.config.INTENT_CONCURRENCY),
      lockDuration: this.config.INTENT_LOCK_MS,
    });
  }
}
