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

/** The outcome of waiting for an intent: its result, or `pending` when it is not known in time. */
export type IntentOutcome = { state: 'done'; result: IntentResult } | { state: 'pending'; intentId: string };

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

  /** Queues signed intents (job id = intent id) and waits for each, until `intentWaitMs` has passed overall. */
  async submitAndWait(payloads: SignedIntentPayload[], options: { jumpQueue?: boolean } = {}): Promise<IntentOutcome[]> {
    const events = await this.queueEvents();
    const deadline = Date.now() + this.options.intentWaitMs;
    const jobs = await Promise.all(
      payloads.map((payload) =>
        this.queues
          .add(INTENTS_QUEUE, 'execute-intent', payload, {
            jobId: payload.intentId,
            lifo: options.jumpQueue ?? false,
            removeOnComplete: { age: 3600 },
            removeOnFail: { age: 86_400 },
          })
          .catch((error: Error) => {
            this.logger.warn(`intent ${payload.intentId} not queued: ${error.message}`);
            throw new ToolError(ToolErrorCode.ExchangeUnavailable, 'The exchange queue did not accept the intent, so nothing was submitted. Please retry in a few seconds.', {
              'Retry-After': String(RETRY_AFTER_SECONDS),
            });
          }),
      ),
    );
    return Promise.all(jobs.map((job, i) => this.wait(job, payloads[i]!.intentId, events, deadline)));
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
