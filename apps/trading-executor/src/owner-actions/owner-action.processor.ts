import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { OWNER_ACTIONS_QUEUE } from '@paper/contracts';
import { APP_CONFIG, QueueRegistry } from '@paper/nest-infra';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { OwnerActionService } from './owner-action.service';

/**
 * BullMQ worker of the owner-actions queue: a job wakes the executor up to run an accepted action and carries its
 * result back.
 */
@Injectable()
export class OwnerActionProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly registry: QueueRegistry,
    private readonly actions: OwnerActionService,
    @Inject(APP_CONFIG) private readonly config: Pick<TradingExecutorConfig, 'INTENT_LOCK_MS'>,
  ) {}

  onApplicationBootstrap(): void {
    this.registry.worker(
      OWNER_ACTIONS_QUEUE,
      { 'execute-owner-action': (data) => this.actions.settle(data.actionId) },
      {
        concurrency: 4,
        lockDuration: this.config.INTENT_LOCK_MS,
        stalledInterval: this.config.INTENT_LOCK_MS,
      },
    );
  }
}
