import { Inject, Injectable, Logger } from '@nestjs/common';
import { INTENTS_QUEUE, type IntentResult, type SignedIntentPayload } from '@paper/contracts';
import { DigestSignatureVerifier, intentId, signedExpiryProblem } from '@paper/exchange-signing';
import { QueueRegistry } from '@paper/nest-infra';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import type { Hex } from 'viem';
import { lockAccounts } from '../database/account-balances';
import { inTransaction, plainSql } from '../database/sql-transaction';
import { intentDuration, intentsExecuted } from '../metrics/executor-metrics';
import { PriceBook } from '../prices/price-book.service';
import { cancelIntent } from './cancel-intent.handler';
import { closePositions } from './close-positions.handler';
import { type IntentOutcome, refused, toIntentMessage, toResult } from './intent-message';
import { findIntentResult, recordIntent } from './intent-store';
import { openPosition } from './open-position.handler';
import { ApprovalCache, checkSessionKey } from './session-key-check';

/**
 * Executes one signed intent exactly once. Everything happens in one transaction that first locks the
 * wallet's account row (so one account's intents run one at a time and can never overspend) and
 * records the intent with its result; a redelivered job finds the record and returns it unchanged.
 */
@Injectable()
export class IntentExecutionService {
  private readonly logger = new Logger('Intents');
  private readonly approvals = new ApprovalCache();
  /** Session keys sign every intent: their public keys are kept for fast verification. */
  private readonly signatures = new DigestSignatureVerifier();

  constructor(
    private readonly dataSource: DataSource,
    private readonly prices: PriceBook,
    @Inject(QueueRegistry) private readonly queues: Pick<QueueRegistry, 'queue'>,
  ) {}

  /** @param enqueuedAt when the intent was submitted (the job's timestamp, ms) */
  async execute(payload: SignedIntentPayload, enqueuedAt: number): Promise<IntentResult> {
    const stop = intentDuration.startTimer({ kind: payload.kind });
    try {
      const result = await this.run(payload, enqueuedAt);
      intentsExecuted.inc({ kind: payload.kind, status: result.status });
      return result;
    } finally {
      stop();
    }
  }

  private async run(payload: SignedIntentPayload, enqueuedAt: number): Promise<IntentResult> {
    const digest = intentId(toIntentMessage(payload));
    if (digest !== payload.intentId.toLowerCase()) {
      // The id does not match the signed content: nothing is recorded under an id that cannot be trusted.
      return toResult(payload, refused('bad_intent_id', 'The intent id does not match the signed intent; build and sign the intent again.'), new Date());
    }
    // A redelivered intent returns its recorded result; the signature is checked while that read runs.
    const storedRead = findIntentResult(plainSql(this.dataSource), payload.intentId);
    // The intent id is the EIP-712 digest the session key signed.
    const signedByKey = this.signatures.verify(digest, payload.signature as Hex, payload.sessionKey);
    const stored = await storedRead;
    if (stored) return stored;
    let jobToRemove: Job | undefined;
    const result = await inTransaction(this.dataSource, async (sql) => {
      jobToRemove = undefined;
      const wallet = payload.message.wallet.toLowerCase();
      const account = (await lockAccounts(sql, [wallet])).get(wallet);
      const existing = await findIntentResult(sql, payload.intentId);
      if (existing) return existing;
      const now = new Date();
      let outcome: IntentOutcome | undefined;
      if (!signedByKey) {
        outcome = refused('bad_signature', 'The intent signature does not match the session key; sign the intent with the approved session key.');
      }
      outcome ??= this.checkExpiry(payload, enqueuedAt, now);
      if (!outcome) {
        const key = await checkSessionKey(sql, wallet, payload.sessionKey, this.approvals, now);
        if (!key.ok) outcome = key.outcome;
        else if (!account) outcome = refused('account_not_found', 'This wallet has no exchange account yet; approve a trading session and deposit first.');
        else if (payload.kind === 'open') outcome = await openPosition(sql, payload, account, key.guardrails, this.prices);
        else if (payload.kind === 'close') outcome = await closePositions(sql, payload, wallet, this.prices);
        else {
          const decision = await cancelIntent(sql, payload, wallet, this.queues.queue(INTENTS_QUEUE), now);
          outcome = decision.outcome;
          jobToRemove = decision.jobToRemove;
        }
      }
      const result = toResult(payload, outcome, now);
      await recordIntent(sql, payload, result, enqueuedAt);
      return result;
    });
    if (jobToRemove) {
      await jobToRemove.remove().catch((error: Error) => this.logger.debug(`cancelled job ${jobToRemove?.id} not removed: ${error.message}`));
    }
    return result;
  }

  private checkExpiry(payload: SignedIntentPayload, enqueuedAt: number, now: Date): IntentOutcome | undefined {
    const problem = signedExpiryProblem(payload.message.expiresAt, enqueuedAt, now);
    if (problem === 'expired') return refused('intent_expired', 'The intent expired before it could run (intents are valid for 1 hour); submit it again.');
    if (problem === 'too_far') return refused('intent_expiry_too_far', 'The intent expires more than 1 hour from now; sign it again with an expiry within the hour.');
    return undefined;
  }
}
