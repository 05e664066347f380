import { Injectable } from '@nestjs/common';
import { INTENT_TTL_SECONDS } from '@paper/exchange-signing';
import { DataSource } from 'typeorm';
import { appendEvents, exchangeEvent } from '@paper/exchange-data';
import { inTransaction, sqlExecutor } from '../database/sql-transaction';
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
      const { rows } = await sql<{ id: string; kind: 'open' | 'close' | 'cancel'; wallet: string }>(
        `WITH due AS (
           SELECT id FROM exchange.intents
            WHERE status = 'queued' AND (expires_at <= now() OR created_at < now() - make_interval(secs => $1))
            ORDER BY created_at LIMIT 10000 FOR UPDATE SKIP LOCKED
         )
         UPDATE exchange.intents i
            SET status = 'expired', reason = $2::text, message = $3::text, executed_at = now(),
                result = jsonb_build_object('intentId', i.id, 'kind', i.kind, 'wallet', i.wallet, 'status', 'expired', 'reason', $2::text,
                                            'message', $3::text, 'executedAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           FROM due WHERE i.id = due.id
         RETURNING i.id, i.kind, i.wallet`,
        [INTENT_TTL_SECONDS, EXPIRED_OUTCOME.reason, EXPIRED_OUTCOME.message],
      );
      await appendEvents(
        sqlExecutor(sql),
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
