import { Inject, Injectable, Logger } from '@nestjs/common';
import { INTENTS_QUEUE, signedIntentSchema } from '@paper/contracts';
import { INTENT_TTL_SECONDS, intentId } from '@paper/exchange-signing';
import { QueueRegistry } from '@paper/nest-infra';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { lockAccounts } from '../database/account-balances';
import { inTransaction } from '../database/sql-transaction';
import { refused, toIntentMessage, toResult } from './intent-message';
import { recordIntent } from './intent-store';

const PAGE = 500;
const MAX_SCANNED = 20_000;

/**
 * The expiry sweep: intents still waiting in the queue after 1 hour (or past their signed expiry) are
 * recorded as expired and removed from the queue. The record is written under the account lock, so an
 * intent a worker is executing at that moment either finishes first or sees the record and stops.
 */
@Injectable()
export class IntentExpiryService {
  private readonly logger = new Logger('IntentExpiry');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(QueueRegistry) private readonly registry: Pick<QueueRegistry, 'queue'>,
  ) {}

  async expireQueued(now = Date.now()): Promise<number> {
    const queue = this.registry.queue(INTENTS_QUEUE);
    const due: Job[] = [];
    for (let start = 0; start < MAX_SCANNED; start += PAGE) {
      const jobs = (await queue.getJobs(['waiting', 'delayed', 'prioritized'], start, start + PAGE - 1, true)).filter(Boolean);
      if (jobs.length === 0) break;
      due.push(...jobs.filter((job) => this.isExpired(job, now)));
    }
    let expired = 0;
    for (const job of due) {
      const parsed = signedIntentSchema.safeParse(job.data);
      if (parsed.success && intentId(toIntentMessage(parsed.data)) === parsed.data.intentId.toLowerCase()) {
        const payload = parsed.data;
        const wallet = payload.message.wallet.toLowerCase();
        await inTransaction(this.dataSource, async (sql) => {
          await lockAccounts(sql, [wallet]);
          const result = toResult(payload, { ...refused('intent_expired', 'The intent waited in the queue for more than 1 hour and expired; submit it again.'), status: 'expired' }, new Date(now));
          await recordIntent(sql, payload, result, job.timestamp);
        });
      }
      await job.remove().then(
        () => (expired += 1),
        (error: Error) => this.logger.debug(`expired intent ${job.id} not removed: ${error.message}`),
      );
    }
    return expired;
  }

  private isExpired(job: Job, now: number): boolean {
    const expiresAt = Number((job.data as { message?: { expiresAt?: string } })?.message?.expiresAt);
    return now - job.timestamp > INTENT_TTL_SECONDS * 1000 || (Number.isFinite(expiresAt) && expiresAt * 1000 <= now);
  }
}
