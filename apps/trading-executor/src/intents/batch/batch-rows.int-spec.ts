import { MARKETS } from '@paper/exchange';
import { acceptIntents } from '@paper/exchange-data';
import { queryRows } from '@paper/sql-rows';
import type { z } from 'zod';
import { inTransaction, type Sql } from '../../database/sql-transaction';
import { ExchangeTestKit, NO_GUARDRAILS } from '../../testing/exchange-test-kit';
import { ApprovalCache } from '../session-key-check';
import {
  CancelTargetRow,
  ClaimedIntentRow,
  ClaimedTargetRow,
  DailyNotionalRow,
  OpenCountRow,
  OpenedPositionRow,
} from './batch-rows';
import { executeBatch } from './intent-batch';
import { claimIntentsById, claimQueuedIntents } from './intent-claim';
import { SignatureChecks } from './signature-checks';

/**
 * The row types of the batch's own statements hold against the database: real batches run on a
 * transaction that records what each statement returned, and every row of each batch statement is
 * parsed, strictly, with the zod schema its row type is derived from. (The statements of the query
 * modules the batch also runs are held by tools/db/query-rows.int-spec.ts.)
 */
const STATEMENTS: [string, string, z.ZodObject][] = [
  ['claim', 'i.session_key', ClaimedIntentRow],
  ['cancel target', 'SELECT wallet, kind, status FROM exchange.intents', CancelTargetRow],
  ['cancel claim', "SELECT id FROM exchange.intents WHERE id = $1 AND status = 'queued'", ClaimedTargetRow],
  ['daily notional', 'sum(notional_micro) AS total', DailyNotionalRow],
  ['open count', 'count(*) AS n FROM exchange.positions', OpenCountRow],
  ['opened positions', 'RETURNING id, open_intent_id', OpenedPositionRow],
];

describe('row types of the intent batch (PostgreSQL)', () => {
  let kit: ExchangeTestKit;

  beforeAll(async () => {
    kit = await ExchangeTestKit.start();
    await kit.setPrice('BTC', '100000');
    await kit.setPrice('ETH', '3500');
  });

  afterAll(async () => {
    await kit?.stop();
  });

  it('parses every row of each batch statement with its schema', async () => {
    const guarded = { ...NO_GUARDRAILS, maxDailyNotionalUsd: '1000000', maxOpenPositions: 100 };
    const t = await kit.trader(1000, guarded);
    // Opened today before the batch, so the guardrails' day and the open count have rows.
    expect(await kit.intents.execute(await kit.open(t, 'BTC', 'long', 100, 100))).toMatchObject({ status: 'executed' });
    const target = await kit.open(t, 'ETH', 'short', 100, 100);
    const cancel = await kit.cancel(t, target.intentId);
    const opens = [await kit.open(t, 'BTC', 'long', 100, 100), await kit.open(t, 'ETH', 'long', 100, 100)];
    await acceptIntents(kit.db, [target, cancel, ...opens]);

    const seen = new Map<string, unknown[]>();
    const prices = new Map(await Promise.all(MARKETS.map(async (m) => [m, await kit.prices.fresh(m)] as const)));
    const run = (claim: (sql: Sql) => ReturnType<typeof claimQueuedIntents>) =>
      inTransaction(kit.db, async (tx) => {
        const recording = {
          query: async (text: string, params?: unknown[]) => {
            const out = await tx.query(text, params);
            const statement = STATEMENTS.find(([, marker]) => text.includes(marker));
            if (statement)
              seen.set(statement[0], [
                ...(seen.get(statement[0]) ?? []),
                ...(await queryRows({ query: async () => out }, text)),
              ]);
            return out;
          },
        } as Sql;
        const claimed = await claim(recording);
        return executeBatch(recording, claimed, {
          prices,
          now: new Date(),
          signatures: new SignatureChecks(),
          approvals: new ApprovalCache(),
        });
      });
    // The cancel alone (its target is outside the batch), then the opens (with the guardrails' counts).
    const cancelled = await run((sql) => claimIntentsById(sql, [cancel.intentId.toLowerCase()]));
    expect(cancelled.find((r) => r.intentId === cancel.intentId.toLowerCase())).toMatchObject({
      status: 'executed',
      cancelledIntentId: target.intentId.toLowerCase(),
    });
    const opened = await run((sql) => claimQueuedIntents(sql, 10));
    expect(opened.map((r) => r.status)).toEqual(['executed', 'executed']);

    for (const [name, , schema] of STATEMENTS) {
      const rows = seen.get(name) ?? [];
      expect({ name, rows: rows.length > 0 }).toEqual({ name, rows: true });
      for (const row of rows)
        expect({ name, ...schema.strict().safeParse(row) }).toMatchObject({ name, success: true });
    }
  });
});
