import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { OWNER_ACTIONS_QUEUE, type OwnerActionResult, type SignedOwnerActionPayload } from '@paper/contracts';
import { APP_CONFIG, bullConnection, QueueRegistry } from '@paper/nest-infra';
import { QueueEvents } from 'bullmq';
import type { TradingExecutorConfig } from '../config/trading-executor.config';

/** How long the development endpoint waits for the executor's answer before reporting the action as pending. */
export const OWNER_ACTION_WAIT_MS = 10_000;

export type SubmittedOwnerAction = { status: 'finished'; result: OwnerActionResult } | { status: 'pending'; actionId: string };

/**
 * Puts a signed owner action on the owner-actions queue (job id = action id, so a resubmission never
 * runs twice) and waits for the executor's result. A wait that times out is reported as pending, never
 * as failed: the action may still run.
 */
@Injectable()
export class OwnerActionSubmitter implements OnApplicationShutdown {
  private readonly logger = new Logger('OwnerActions');
  private events?: QueueEvents;

  constructor(
    private readonly queues: QueueRegistry,
    @Inject(APP_CONFIG) private readonly config: Pick<TradingExecutorConfig, 'REDIS_URL' | 'REDIS_PREFIX'>,
  ) {}

  async submit(payload: SignedOwnerActionPayload, waitMs = OWNER_ACTION_WAIT_MS): Promise<SubmittedOwnerAction> {
    const events = await this.queueEvents();
    const actionId = payload.actionId.toLowerCase();
    const job = await this.queues.add(OWNER_ACTIONS_QUEUE, 'execute-owner-action', payload, {
      jobId: actionId,
      attempts: 3,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: 1000,
      removeOnFail: 1000,
    });
    try {
      return { status: 'finished', result: (await job.waitUntilFinished(events, waitMs)) as OwnerActionResult };
    } catch (error) {
      this.logger.warn(`owner action ${actionId} not finished: ${(error as Error).message}`);
      return { status: 'pending', actionId };
    }
  }

  private async queueEvents(): Promise<QueueEvents> {
    if (!this.events) {
      this.events = new QueueEvents(OWNER_ACTIONS_QUEUE.queue, bullConnection(this.config));
      this.events.on('error', (error) => this.logger.warn(`queue events: ${error.message}`));
    }
    await this.events.waitUntilReady();
    return this.events;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.events?.close();
  }
}
