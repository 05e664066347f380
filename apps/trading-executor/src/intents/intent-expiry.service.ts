import { Injectable } from '@nestjs/common';
import { INTENT_TTL_SECONDS } from '@paper/exchange-signing';
import { DataSource } from 'typeorm';
import { appendEvents, exchangeEvent, expireQueuedIntents } from '@paper/exchange-data';
import { inTransaction } from '../database/sql-transaction';
import { EXPIRED_OUTCOME } from './batch/admission';

/**
 * The expiry sweep: queued intents past their signed expiry, or accepted more than 1 hour ago, are stored
 * as `expired` (set-based). Rows a batch holds are skipped (`SKIP LOCKED`): that batch stores them as
 * expired itself, or executes them if they were still valid when it claimed them.
 */
@Injectable()
export class IntentExpiryService {
  constructor(private readonly dataSource: DataSource) {}

  async expireQueued(): Promise<number> {
    return inTransaction(this.dataSource, async (sql) => {
      const rows = await expireQueuedIntents(sql, INTENT_TTL_SECONDS, EXPIRED_OUTCOME);
      await appendEvents(
        sql,
        rows.map((r) =>
          exchangeEvent(
            'intent.expired',
            { intentId: r.id, kind: r.kind, message: EXPIRED_OUTCOME.message },
            { wallet: r.wallet },
          ),
        ),
      );
      return rows.length;
    });
  }
}
