import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { INTENTS_QUEUE, type IntentResult, type SignedIntentPayload, ToolErrorCode } from '@paper/contracts';
import { type CancelIntent, type CloseIntent, INTENT_TTL_SECONDS, type OpenIntent, intentId } from '@paper/exchange-signing';
import { QueueRegistry, bullConnection } from '@paper/nest-infra';
import { type ConnectionOptions, type Job, QueueEvents } from 'bullmq';
import type { PrivateKeyAccount } from 'viem/accounts';
import { ToolError, RETRY_AFTER_SECONDS } from '../errors/tool.error';
import { IntentStatusReader } from '../exchange/intent-status.reader';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';

export type UnsignedIntent =
  | { kind: 'open'; message: Omit<OpenIntent, 'nonce' | 'expiresAt'> }
  | { kind: 'close'; message: Omit<CloseIntent, 'nonce' | 'expiresAt'> }
  | { kind: 'cancel'; message: Omit<CancelIntent, 'nonce' | 'expiresAt'> };

/**
 * The outcome of an intent: its result; `pending` when it is not known in time (or whether it was queued
 * is unknown); `not_queued` when the queue certainly did not take it (only beside intents that were queued).
 */
export type IntentOutcome = { state: 'done'; result: IntentResult } | { state: 'pending'; intentId: string } | { state: 'not_queued'; intentId: string };

/** No intent of the call was queued, for certain: nothing will execute, so the call can be repeated as is. */
export class IntentNotQueuedError extends ToolError {
  constructor() {
    super(ToolErrorCode.ExchangeUnavailable, 'The exchange queue did not accept the intent, so nothing was submitted. Please retry in a few seconds.', {
      'Retry-After': String(RETRY_AFTER_SECONDS),
    });
  }
}

type Queued = { state: 'queued'; job: Job } | { state: 'not_queued' } | { state: 'unknown' };

/** Signs intents with the session key, queues them for the executor and waits (bounded) for the result. */
@Injectable()
export class IntentSubmitter implements OnApplicationShutdown {
  private readonly logger = new Logger('IntentSubmitter');
  private events?: Promise<QueueEvents>;

  constructor(
    private readonly queues: QueueRegistry,
    private readonly statuses: IntentStatusReader,
    @Inject(TOOLS_RUNTIME_OPTIONS) private readonly options: ToolsRuntimeOptions,
  ) {}

  /** Signs an intent: random 64-bit nonce, valid for one hour. */
  async sign(intent: UnsignedIntent, account: PrivateKeyAccount, now = Date.now()): Promise<SignedIntentPayload> {
    const nonce = BigInt(`0x${randomBytes(8).toString('hex')}`);
    const expiresAt = BigInt(Math.floor(now / 1000) + INTENT_TTL_SECONDS);
    const full = { kind: intent.kind, message: { ...intent.message, nonce, expiresAt } } as Parameters<typeof intentId>[0];
    // The intent id is the EIP-712 digest: signing it is signing the typed data (hashed once).
    const id = intentId(full);
    const signature = await account.sign({ hash: id });
    const message = Object.fromEntries(
      Object.entries(full.message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : Array.isArray(v) ? v.map(String) : v]),
    );
    return { kind: intent.kind, message, sessionKey: account.address.toLowerCase(), signature, intentId: id } as SignedIntentPayload;
  }

  /**
   * Queues signed intents (job id = intent id) and waits for each, until `intentWaitMs` has passed overall.
   * Throws IntentNotQueuedError when certainly none was queued; an intent that may have been queued is
   * reported `pending`, never as failed.
   */
  async submitAndWait(payloads: SignedIntentPayload[], options: { jumpQueue?: boolean } = {}): Promise<IntentOutcome[]> {
    const deadline = Date.now() + this.options.intentWaitMs;
    const events = await this.queueEvents().catch((error: Error) => {
      this.logger.warn(`intents not queued (queue events unavailable): ${error.message}`);
      throw new IntentNotQueuedError();
    });
    const queued = await Promise.all(payloads.map((payload) => this.enqueue(payload, options.jumpQueue ?? false, deadline)));
    if (queued.every((q) => q.state === 'not_queued')) throw new IntentNotQueuedError();
    return Promise.all(
      queued.map((q, i): Promise<IntentOutcome> | IntentOutcome => {
        const intentId = payloads[i]!.intentId;
        if (q.state === 'queued') return this.wait(q.job, intentId, events, deadline);
        return { state: q.state === 'not_queued' ? 'not_queued' : 'pending', intentId };
      }),
    );
  }

  /** Adds one intent to the queue (bounded by the deadline); when that fails, finds out whether it is there anyway. */
  private async enqueue(payload: SignedIntentPayload, lifo: boolean, deadline: number): Promise<Queued> {
    const adding = this.queues.add(INTENTS_QUEUE, 'execute-intent', payload, {
      jobId: payload.intentId,
      lifo,
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 86_400 },
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), Math.max(1, deadline - Date.now()))));
    try {
      const added = await Promise.race([adding, timeout]);
      // Still being sent (Redis unreachable): it may reach the queue later, so it is pending, not failed.
      if (added === 'timeout') return { state: 'unknown' };
      return { state: 'queued', job: added };
    } catch (error) {
      this.logger.warn(`intent ${payload.intentId} not accepted by the queue: ${(error as Error).message}`);
      return this.lookUp(payload.intentId);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether an intent whose queueing failed is in the queue or the exchange's records after all. */
  private async lookUp(id: string): Promise<Queued> {
    try {
      const job = (await this.queues.queue(INTENTS_QUEUE).getJob(id)) as Job | undefined;
      if (job) return { state: 'queued', job };
      return (await this.statuses.find(id)) ? { state: 'unknown' } : { state: 'not_queued' };
    } catch {
      return { state: 'unknown' };
    }
  }

  private async wait(job: Job, id: string, events: QueueEvents, deadline: number): Promise<IntentOutcome> {
    try {
      const result = (await job.waitUntilFinished(events, Math.max(1, deadline - Date.now()))) as IntentResult;
      if (result && typeof result === 'object' && 'status' in result) return { state: 'done', result };
    } catch (error) {
      if (/timed out/i.test((error as Error).message)) return { state: 'pending', intentId: id };
      // The job failed: its record (written in the same transaction as any execution) says what happened.
      const view = await this.statuses.find(id).catch(() => null);
      if (view?.result) return { state: 'done', result: view.result };
      if (view?.reason !== 'execution_failed') return { state: 'pending', intentId: id };
      throw new ToolError(ToolErrorCode.ExchangeUnavailable, 'The exchange could not execute the intent, and nothing was executed. Please retry in a few seconds.', {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      });
    }
    const view = await this.statuses.find(id).catch(() => null);
    return view?.result ? { state: 'done', result: view.result } : { state: 'pending', intentId: id };
  }

  private queueEvents(): Promise<QueueEvents> {
    this.events ??= (async () => {
      const bull = bullConnection({ REDIS_URL: this.options.redisUrl, REDIS_PREFIX: this.options.redisPrefix });
      // The options are ioredis RedisOptions; BullMQ's type names another ioredis build's client type.
      const events = new QueueEvents(INTENTS_QUEUE.queue, { prefix: bull.prefix, connection: bull.connection as ConnectionOptions });
      events.on('error', (error) => this.logger.warn(`queue events: ${error.message}`));
      await events.waitUntilReady();
      return events;
    })().catch((error: Error) => {
      this.events = undefined;
      throw error;
    });
    return this.events;
  }

  async onApplicationShutdown(): Promise<void> {
    const events = await this.events?.catch(() => undefined);
    await events?.close();
  }
}
