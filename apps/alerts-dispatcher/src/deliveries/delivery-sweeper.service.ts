import { Inject, Injectable, Logger } from '@nestjs/common';
import { ALERTS_DELIVERY_QUEUE } from '@paper/contracts';
import { APP_CONFIG, QueueRegistry } from '@paper/nest-infra';
import type { AlertsDispatcherConfig } from '../config/alerts-dispatcher.config';
import { DeliveryStore } from './delivery-store';

/**
 * The outbox sweeper: a delivery row that is still pending but has no live job (the poller died
 * between its commit and the enqueue, a job failed or was lost) gets its `deliver` job back.
 */
@Injectable()
export class DeliverySweeper {
  private readonly logger = new Logger(DeliverySweeper.name);

  constructor(
    private readonly store: DeliveryStore,
    private readonly queues: QueueRegistry,
    @Inject(APP_CONFIG) private readonly config: AlertsDispatcherConfig,
  ) {}

  async sweep(): Promise<{ checked: number; requeued: number }> {
    const grace = this.config.ALERTS_SWEEP_GRACE_MS;
    const ids = await this.store.overdue(grace, Math.max(grace, this.config.ALERTS_DELIVERY_LOCK_MS * 2));
    const queue = this.queues.queue(ALERTS_DELIVERY_QUEUE);
    let requeued = 0;
    for (const id of ids) {
      const state = await queue.getJobState(id);
      if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') continue;
      if (state === 'completed' || state === 'failed') await queue.remove(id).catch(() => 0);
      await this.queues.add(ALERTS_DELIVERY_QUEUE, 'deliver', { deliveryId: id }, { jobId: id });
      requeued += 1;
    }
    if (requeued > 0) this.logger.log(`re-enqueued ${requeued} deliveries without a live job`);
    return { checked: ids.length, requeued };
  }
}
