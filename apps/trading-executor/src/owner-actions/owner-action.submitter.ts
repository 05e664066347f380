import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { OWNER_ACTIONS_QUEUE, type OwnerActionResult, type SignedOwnerActionPayload } from '@paper/contracts';
import { acceptOwnerAction, readOwnerActions } from '@paper/exchange-data';
import { APP_CONFIG, bullConnection, QueueRegistry, waitForJob } from '@paper/nest-infra';
import { QueueEvents } from 'bullmq';
import { DataSource } from 'typeorm';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { OwnerActionService } from './owner-action.service';

/** How long the development endpoint waits for the executor's answer before reporting the action as pending. */
export const OWNER_ACTION_WAIT_MS = 10_000;
/** How long adding the wake-up job may take before the action is reported pending (the sweeper runs it). */
const WAKE_UP_TIMEOUT_MS = 1000;

export type SubmittedOwnerAction =
  { status: 'finished'; result: OwnerActionResult } | { status: 'pending'; actionId: string };

/**
 * Accepts a signed owner action: its row is written `queued` in `exchange.owner_actions` first (the
 * record; a database error is thrown and nothing was accepted), then a wake-up job (job id = action id)
 * is added to the owner-actions queue and its result awaited. A wait that times out, or a queue that is
 * down, is reported as pending, never as failed: the sweeper runs the action.
 */
@Injectable()
export class OwnerActionSubmitter implements OnApplicationShutdown {
  private readonly logger = new Logger('OwnerActions');
  private events?: QueueEvents;

  constructor(
    private readonly queues: QueueRegistry,
    private readonly dataSource: DataSource,
    private readonly actions: OwnerActionService,
    @Inject(APP_CONFIG) private readonly config: Pick<TradingExecutorConfig, 'REDIS_URL' | 'REDIS_PREFIX'>,
  ) {}

  async submit(payload: SignedOwnerActionPayload, waitMs = OWNER_ACTION_WAIT_MS): Promise<SubmittedOwnerAction> {
    const actionId = payload.actionId.toLowerCase();
    const refusal = this.actions.refusalBeforeAccepting(payload);
    if (refusal) return { status: 'finished', result: refusal };
    const acceptance = await acceptOwnerAction(this.dataSource, payload);
    if (acceptance.state === 'conflict') return { status: 'finished', result: this.actions.conflict(payload) };
    if (acceptance.state === 'known' && acceptance.result) return { status: 'finished', result: acceptance.result };
    const deadline = Date.now() + waitMs;
    const job = await this.queues.wakeUp(
      OWNER_ACTIONS_QUEUE,
      'execute-owner-action',
      { actionId },
      { jobId: actionId },
      WAKE_UP_TIMEOUT_MS,
    );
    if (job) {
      const wait = await waitForJob(job, this.queueEvents(), deadline - Date.now());
      if (wait.state === 'failed') this.logger.warn(`owner action ${actionId} job failed: ${wait.reason}`);
    }
    // The row is the truth, whether the job completed, failed, timed out or was never added.
    const [row] = await readOwnerActions(this.dataSource, [actionId]).catch(() => []);
    return row?.result ? { status: 'finished', result: row.result } : { status: 'pending', actionId };
  }

  private queueEvents(): QueueEvents {
    if (!this.events) {
      this.events = new QueueEvents(OWNER_ACTIONS_QUEUE.queue, bullConnection(this.config));
      this.events.on('error', (error) => this.logger.warn(`queue events: ${error.message}`));
    }
    return this.events;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.events?.close();
  }
}
