import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { INTENTS_QUEUE, type IntentResult, isIntentResult, type SignedIntentPayload, ToolErrorCode } from '@paper/contracts';
import { acceptIntents, readIntents } from '@paper/exchange-data';
import { type CancelIntent, type CloseIntent, INTENT_TTL_SECONDS, type OpenIntent, intentId } from '@paper/exchange-signing';
import { bullConnection, QueueRegistry, waitForJob } from '@paper/nest-infra';
import { type ConnectionOptions, QueueEvents } from 'bullmq';
import { DataSource } from 'typeorm';
import type { PrivateKeyAccount } from 'viem/accounts';
import { ToolError, RETRY_AFTER_SECONDS } from '../errors/tool.error';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';

export type UnsignedIntent =
  | { kind: 'open'; message: Omit<OpenIntent, 'nonce' | 'expiresAt'> }
  | { kind: 'close'; message: Omit<CloseIntent, 'nonce' | 'expiresAt'> }
  | { kind: 'cancel'; message: Omit<CancelIntent, 'nonce' | 'expiresAt'> };

/** The outcome of an accepted intent: its result, or `pending` when it is not final in time (it still runs). */
export type IntentOutcome = { state: 'done'; result: IntentResult } | { state: 'pending'; intentId: string };

/** How long adding a wake-up job may take before the intent is reported pending (the executor's sweeper runs it). */
const WAKE_UP_TIMEOUT_MS = 1000;

/** The exchange's inbox could not be written: nothing was accepted, so the call can be repeated as is. */
export class IntentNotAcceptedError extends ToolError {
  constructor() {
    super(ToolErrorCode.ExchangeUnavailable, 'The exchange could not record the intent, so nothing was submitted. Please retry in a few seconds.', {
      'Retry-After': String(RETRY_AFTER_SECONDS),
    });
  }
}

/**
 * Signs intents with the session key and submits them: each is written to the exchange's inbox
 * (`exchange.intents`, status queued) before anything else, which is the moment it is accepted; then a
 * wake-up job (job id = intent id) tells the executor, and the job's completion (BullMQ queue events, no
 * polling) carries the result back. The row is the truth: when the wait ends without a result it is read
 * once, and an intent not final yet is reported pending. If Redis is down the intent is still accepted
 * and pending (the executor's sweeper runs it); if the inbox cannot be written nothing was accepted.
 */
@Injectable()
export class IntentSubmitter implements OnApplicationShutdown {
  private readonly logger = new Logger('IntentSubmitter');
  private events?: QueueEvents;

  constructor(
    private readonly queues: QueueRegistry,
    @Inject(DataSource) private readonly db: DataSource,
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
   * Accepts signed intents (all or none: throws IntentNotAcceptedError when the inbox cannot be written),
   * wakes the executor up and waits for each until `intentWaitMs` has passed overall.
   */
  async submitAndWait(payloads: SignedIntentPayload[], options: { jumpQueue?: boolean } = {}): Promise<IntentOutcome[]> {
    const deadline = Date.now() + this.options.intentWaitMs;
    const acceptances = await acceptIntents(this.db, payloads).catch((error: Error) => {
      this.logger.warn(`intents not accepted (inbox not written): ${error.message}`);
      throw new IntentNotAcceptedError();
    });
    if (acceptances.some((a) => a.state === 'conflict')) {
      throw new ToolError(ToolErrorCode.TradeRefused, 'Another intent with the same id and a different signature was submitted; nothing was submitted. Retry the call.');
    }
    const outcomes = await Promise.all(
      acceptances.map(async (a): Promise<IntentOutcome> => {
        if (a.state === 'known' && a.result) return { state: 'done', result: a.result };
        return this.wakeAndWait(a.id, options.jumpQueue ?? false, deadline);
      }),
    );
    return this.fromInbox(outcomes);
  }

  private async wakeAndWait(id: string, lifo: boolean, deadline: number): Promise<IntentOutcome> {
    const job = await this.queues.wakeUp(INTENTS_QUEUE, 'execute-intent', { intentId: id }, { jobId: id, lifo }, Math.min(WAKE_UP_TIMEOUT_MS, deadline - Date.now()));
    if (!job) {
      this.logger.warn(`intent ${id} accepted; its wake-up job was not added in time (the executor's sweeper runs it)`);
      return { state: 'pending', intentId: id };
    }
    const wait = await waitForJob(job, this.queueEvents(), deadline - Date.now());
    if (wait.state === 'completed' && isIntentResult(wait.value)) return { state: 'done', result: wait.value };
    return { state: 'pending', intentId: id };
  }

  /** Intents still pending after the wait: the inbox row says whether they ended meanwhile (one read for all). */
  private async fromInbox(outcomes: IntentOutcome[]): Promise<IntentOutcome[]> {
    const pending = outcomes.filter((o) => o.state === 'pending').map((o) => o.intentId);
    if (pending.length === 0) return outcomes;
    const rows = await readIntents(this.db, pending).catch(() => []);
    const final = new Map(rows.filter((r) => r.status !== 'queued' && r.result).map((r) => [r.id, r.result!]));
    return outcomes.map((o) => (o.state === 'pending' && final.has(o.intentId.toLowerCase()) ? { state: 'done', result: final.get(o.intentId.toLowerCase())! } : o));
  }

  private queueEvents(): QueueEvents {
    if (!this.events) {
      const bull = bullConnection({ REDIS_URL: this.options.redisUrl, REDIS_PREFIX: this.options.redisPrefix });
      // The options are ioredis RedisOptions; BullMQ's type names another ioredis build's client type.
      this.events = new QueueEvents(INTENTS_QUEUE.queue, { prefix: bull.prefix, connection: bull.connection as ConnectionOptions });
      this.events.on('error', (error) => this.logger.warn(`queue events: ${error.message}`));
    }
    return this.events;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.events?.close();
  }
}
