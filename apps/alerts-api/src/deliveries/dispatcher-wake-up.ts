import type { Logger } from '@nestjs/common';
import { ALERTS_DELIVERY_QUEUE, DELIVERIES_DUE_JOB_ID } from '@paper/contracts';
import type { QueueRegistry } from '@paper/nest-infra';

/**
 * Wakes the dispatchers after deliveries were re-queued. The rows are the truth: the dispatchers read due
 * deliveries themselves (within ALERTS_DELIVERY_POLL_MS), the wake-up only makes it sooner.
 */
export async function wakeDispatchers(queues: QueueRegistry, logger: Logger): Promise<void> {
  await queues
    .add(ALERTS_DELIVERY_QUEUE, 'deliveries-due', {}, { jobId: DELIVERIES_DUE_JOB_ID })
    .catch((error: Error) =>
      logger.warn(`waking the dispatchers failed (they find the deliveries by themselves): ${error.message}`),
    );
}
