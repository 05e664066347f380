import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { INTENTS_DUE_JOB_ID, INTENTS_QUEUE } from '@paper/contracts';
import { APP_CONFIG, QueueRegistry } from '@paper/nest-infra';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { IntentEngine } from './intent-engine.service';

/** How long a backlog wake-up may wait for Redis (the batches go on without it). */
const BACKLOG_WAKE_UP_TIMEOUT_MS = 1000;

/**
 * BullMQ worker of the intents queue; the queue only wakes the engine, which claims whatever is queued
 * in `exchange.intents`. `intents-due` (one job id for every producer) starts batches, and claims again
 * once the job has left the queue (after the batches running then, not beside them): an add ignored while
 * the job was active (its id taken) came after the intents it announces were committed, so that second
 * claim sees them. A replica that finds a backlog (a full claim) adds `intents-due` again, so the other
 * replicas, blocked on the queue before it, wake up and claim beside it (one add waits at a time).
 */
@Injectable()
export class IntentProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly registry: QueueRegistry,
    private readonly engine: IntentEngine,
    @Inject(APP_CONFIG) private readonly config: TradingExecutorConfig,
  ) {}

  private sharing = false;

  onApplicationBootstrap(): void {
    this.engine.onBacklog(() => this.shareBacklog());
    const worker = this.registry.worker(
      INTENTS_QUEUE,
      { 'intents-due': async () => this.engine.pump() },
      { lockDuration: this.config.INTENT_LOCK_MS },
    );
    worker.on('completed', () => this.engine.claimAfterRunning());
  }

  private shareBacklog(): void {
    if (this.sharing) return;
    this.sharing = true;
    void this.registry
      .wakeUp(INTENTS_QUEUE, 'intents-due', {}, { jobId: INTENTS_DUE_JOB_ID }, BACKLOG_WAKE_UP_TIMEOUT_MS)
      .catch(() => null)
      .finally(() => (this.sharing = false));
  }
}
