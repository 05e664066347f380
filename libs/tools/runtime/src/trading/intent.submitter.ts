import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  INTENTS_DUE_JOB_ID,
  INTENTS_QUEUE,
  type IntentResult,
  type SignedIntentPayload,
  ToolErrorCode,
} from '@paper/contracts';
import { acceptIntents, readIntents } from '@paper/exchange-data';
import {
  type CancelIntent,
  type CloseIntent,
  INTENT_TTL_SECONDS,
  type OpenIntent,
  intentId,
} from '@paper/exchange-signing';
import { QueueRegistry } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import type { PrivateKeyAccount } from 'viem/accounts';
import { ToolError, RETRY_AFTER_SECONDS } from '../errors/tool.error';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';
import type { WriteProgress } from '../context/tool-context';
import { IntentResultWaits } from './intent-result-waits';

export type UnsignedIntent =
  | { kind: 'open'; message: Omit<OpenIntent, 'nonce' | 'expiresAt'> }
  | { kind: 'close'; message: Omit<CloseIntent, 'nonce' | 'expiresAt'> }
  | { kind: 'cancel'; message: Omit<CancelIntent, 'nonce' | 'expiresAt'> };

/** The outcome of an accepted intent: its result, or `pending` when it is not final in time (it still runs). */
export type IntentOutcome = { state: 'done'; result: IntentResult } | { state: 'pending'; intentId: string };

/**
 * How long subscribing to results and adding the wake-up job may take before the intents are reported pending (the
 * executor's sweeper runs them).
 */
const WAKE_UP_TIMEOUT_MS = 1000;

/** The exchange's inbox could not be written: nothing was accepted, so the call can be repeated as is. */
export class IntentNotAcceptedError extends ToolError {
  constructor() {
    super(
      ToolErrorCode.ExchangeUnavailable,
      'The exchange could not record the intent, so nothing was submitted. Please retry in a few seconds.',
      {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      },
    );
  }
}

/**
 * Signs intents with the session key and submits them: each is written to the exchange's inbox
 * (`exchange.intents`, status queued) before anything else, which is the moment it is accepted; then one
 * deduplicated `intents-due` job wakes the executors, which claim whatever is queued, and the results come
 * back on the executors' result messages (or from the inbox when a message cannot arrive). An intent not
 * final within `intentWaitMs` is reported pending. If Redis is down the intent is still accepted and
 * pending at once (the executor's sweeper runs it); if the inbox cannot be written nothing was accepted.
 */
@Injectable()
export class IntentSubmitter implements OnApplicationShutdown {
  private readonly logger = new Logger('IntentSubmitter');
  private readonly waits: IntentResultWaits;

  constructor(
    private readonly queues: QueueRegistry,
    @Inject(DataSource) private readonly db: DataSource,
    @Inject(TOOLS_RUNTIME_OPTIONS) private readonly options: ToolsRuntimeOptions,
  ) {
    this.waits = new IntentResultWaits({ REDIS_URL: options.redisUrl, REDIS_PREFIX: options.redisPrefix }, (ids) =>
      this.finalResults(ids),
    );
  }

  /** Signs an intent: random 64-bit nonce, valid for one hour. */
  async sign(intent: UnsignedIntent, account: PrivateKeyAccount, now = Date.now()): Promise<SignedIntentPayload> {
    const nonce = BigInt(`0x${randomBytes(8).toString('hex')}`);
    const expiresAt = BigInt(Math.floor(now / 1000) + INTENT_TTL_SECONDS);
    const full = { kind: intent.kind, message: { ...intent.message, nonce, expiresAt } } as Parameters<
      typeof intentId
    >[0];
    // The intent id is the EIP-712 digest: signing it is signing the typed data (hashed once).
    const id = intentId(full);
    const signature = await account.sign({ hash: id });
    const message = Object.fromEntries(
      Object.entries(full.message).map(([k, v]) => [
        k,
        typeof v === 'bigint' ? v.toString() : Array.isArray(v) ? v.map(String) : v,
      ]),
    );
    return {
      kind: intent.kind,
      message,
      sessionKey: account.address.toLowerCase(),
      signature,
      intentId: id,
    } as SignedIntentPayload;
  }

  /**
   * Accepts signed intents (all or none: throws IntentNotAcceptedError when the inbox cannot be written),
   * wakes the executors up and waits for the results until `intentWaitMs` has passed overall. `progress` (a
   * write with a client key) learns that the inbox accepted them.
   */
  async submitAndWait(payloads: SignedIntentPayload[], progress?: WriteProgress): Promise<IntentOutcome[]> {
    const deadline = Date.now() + this.options.intentWaitMs;
    const acceptances = await acceptIntents(this.db, payloads).catch((error: Error) => {
      this.logger.warn(`intents not accepted (inbox not written): ${error.message}`);
      throw new IntentNotAcceptedError();
    });
    if (acceptances.some((a) => a.state === 'conflict')) {
      throw new ToolError(
        ToolErrorCode.TradeRefused,
        'Another intent with the same id and a different signature was submitted; nothing was submitted. Retry the ' +
          'call.',
      );
    }
    if (progress) progress.accepted = true;
    const open = acceptances.filter((a) => !(a.state === 'known' && a.result)).map((a) => a.id.toLowerCase());
    const results = open.length > 0 ? await this.wakeAndWait(open, deadline) : new Map<string, IntentResult>();
    // Intents still pending: the inbox says whether they ended meanwhile (one read for all).
    const pending = open.filter((id) => !results.has(id));
    if (pending.length > 0)
      for (const [id, result] of await this.finalResults(pending).catch(() => new Map<string, IntentResult>()))
        results.set(id, result);
    return acceptances.map((a): IntentOutcome => {
      const result = a.state === 'known' && a.result ? a.result : results.get(a.id.toLowerCase());
      return result ? { state: 'done', result } : { state: 'pending', intentId: a.id };
    });
  }

  /** Waits for the results of accepted intents (registered before the wake-up, so none is missed). */
  private async wakeAndWait(ids: readonly string[], deadline: number): Promise<Map<string, IntentResult>> {
    const budget = () => Math.min(WAKE_UP_TIMEOUT_MS, deadline - Date.now());
    await this.waits.listen(budget());
    const wait = this.waits.expect(ids);
    const job = await this.queues.wakeUp(INTENTS_QUEUE, 'intents-due', {}, { jobId: INTENTS_DUE_JOB_ID }, budget());
    if (!job) {
      this.logger.warn(
        `${ids.length} intent(s) accepted; their wake-up job was not added in time (the executor's sweeper runs them)`,
      );
      wait.cancel();
    }
    return wait.results(deadline);
  }

  /** The final results among these intents, read from the inbox. */
  private async finalResults(ids: readonly string[]): Promise<Map<string, IntentResult>> {
    const rows = await readIntents(this.db, ids);
    return new Map(rows.filter((r) => r.status !== 'queued' && r.result).map((r) => [r.id, r.result!]));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.waits.close();
  }
}
