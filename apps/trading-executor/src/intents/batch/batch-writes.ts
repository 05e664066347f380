import type { IntentResult } from '@paper/contracts';
import { type AccountDelta, type Market, usdcToMicro } from '@paper/exchange';
import {
  appendEvents,
  type NewExchangeEvent,
  applyAccountDeltas,
  type LedgerTx,
  writeLedger,
  appendPayouts,
  cancelOwnClaims,
  savePool,
} from '@paper/exchange-data';
import { queryRows } from '@paper/sql-rows';
import type { OpenedPositionRow } from './batch-rows';
import type { Sql } from '../../database/sql-transaction';
import { intentOutcomeEvents, settledEvent } from '../../events/exchange-event-builders';
import { toResultOf } from '../intent-message';
import type { BatchState, NewPosition, QueueOp } from './batch-state';

/**
 * Writes what a batch decided, set-based and in the lock order every transaction uses (positions, the
 * protocol row, payout-queue rows, then market rows): new positions (one insert), settled positions (one
 * update), payout-queue changes in the order the closes made them, the ledger (one insert), the accounts
 * (one update), the pool, every intent's result (one update), then open interest (one update per market)
 * and the events.
 */
export async function writeBatch(
  sql: Sql,
  state: BatchState,
  resultBase: Map<string, Pick<IntentResult, 'kind' | 'wallet'>>,
): Promise<void> {
  const opened = await insertPositions(sql, state.newPositions);
  const ledger: LedgerTx[] = [...state.ledger];
  for (const p of state.newPositions) {
    const positionId = opened.get(p.intentId)!;
    ledger.push({ ...p.ledger, ref: positionId });
    const base = resultBase.get(p.intentId)!;
    state.results.set(p.intentId, toResultOf(p.intentId, base.kind, base.wallet, p.outcome(positionId), state.now));
  }
  await updateSettled(sql, state);
  await applyQueueOps(sql, state.queueOps);
  await writeLedger(sql, ledger);
  const deltas = new Map<string, AccountDelta>();
  const volumes = new Map<string, bigint>();
  for (const [wallet, a] of state.accounts) {
    if (Object.values(a.delta).some((v) => v !== 0n) || a.volumeMicro !== 0n) {
      deltas.set(wallet, a.delta);
      volumes.set(wallet, a.volumeMicro);
    }
  }
  await applyAccountDeltas(sql, deltas, true, volumes);
  if (state.pool)
    await savePool(sql, state.pool, {
      feesCollectedMicro: state.feesCollectedMicro,
      paperMintedMicro: state.paperMintedMicro,
    });
  const results = [...state.results.values()];
  await recordResults(sql, results);
  // Open interest and the event log are shared by every batch: their row and lock are taken last, so
  // each is held only for the statements after it and the commit.
  for (const market of [...state.markets.keys()].sort() as Market[]) {
    const m = state.markets.get(market)!;
    if (m.longDeltaMicro === 0n && m.shortDeltaMicro === 0n) continue;
    await sql.query(
      `UPDATE exchange.markets SET long_oi_micro = long_oi_micro + $2, short_oi_micro = short_oi_micro + $3
         WHERE market = $1`,
      [market, m.longDeltaMicro, m.shortDeltaMicro],
    );
  }
  await appendEvents(sql, [...intentOutcomeEvents(results), ...settledEvents(state, results)]);
}

/**
 * The positions the batch settled, closed by their intent or liquidated because the mid had passed their bust price.
 */
function settledEvents(state: BatchState, results: readonly IntentResult[]): NewExchangeEvent[] {
  const paid = new Map(results.flatMap((r) => (r.closed ?? []).map((c) => [c.positionId, c.paidUsd] as const)));
  return state.settled.map((s) => {
    const row = state.positions.get(s.id)!;
    const paidUsd = paid.get(s.id);
    return settledEvent(s.status === 'liquidated' ? 'position.liquidated' : 'position.closed', row, {
      exit: s.exit,
      pnlMicro: s.pnlMicro,
      feeMicro: s.feeMicro,
      paidMicro: paidUsd ? usdcToMicro(paidUsd) : 0n,
      queuedMicro: s.queuedMicro,
      rewardMintedMicro: s.rewardMintedMicro,
      intentId: s.intentId,
    });
  });
}

async function insertPositions(sql: Sql, positions: readonly NewPosition[]): Promise<Map<string, string>> {
  if (positions.length === 0) return new Map();
  const col = <T>(f: (p: NewPosition) => T) => positions.map(f);
  const rows = await queryRows<OpenedPositionRow>(
    sql,
    `INSERT INTO exchange.positions (wallet, market, side, margin_micro, leverage, notional_micro, entry_price,
       bust_price, status, margin_queued_micro, open_intent_id, opened_at)
     SELECT wallet, market, side, margin, leverage, notional, entry, bust, 'open', from_queued, intent, now()
       FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::bigint[], $5::int[], $6::bigint[], $7::bigint[],
         $8::bigint[], $9::bigint[], $10::varchar[])
            WITH ORDINALITY AS v(wallet, market, side, margin, leverage, notional, entry, bust, from_queued, intent, n)
      ORDER BY n
     RETURNING id, open_intent_id`,
    [
      col((p) => p.wallet),
      col((p) => p.market),
      col((p) => p.side),
      col((p) => p.marginMicro.toString()),
      col((p) => p.leverage),
      col((p) => p.notionalMicro.toString()),
      col((p) => p.entryPrice.toString()),
      col((p) => p.bustPrice.toString()),
      col((p) => p.marginQueuedMicro.toString()),
      col((p) => p.intentId),
    ],
  );
  return new Map(rows.map((r) => [r.open_intent_id, r.id]));
}

async function updateSettled(sql: Sql, state: BatchState): Promise<void> {
  const s = state.settled;
  if (s.length === 0) return;
  await sql.query(
    `UPDATE exchange.positions p
        SET status = v.status, exit_price = v.exit, pnl_micro = v.pnl, fee_micro = v.fee, queued_micro = v.queued,
            reward_minted_micro = v.minted, margin_queued_micro = 0, close_intent_id = v.intent, closed_at = now()
       FROM unnest($1::bigint[], $2::varchar[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
         $8::varchar[])
            AS v(id, status, exit, pnl, fee, queued, minted, intent)
      WHERE p.id = v.id`,
    [
      s.map((x) => x.id),
      s.map((x) => x.status),
      s.map((x) => x.exit.toString()),
      s.map((x) => x.pnlMicro.toString()),
      s.map((x) => x.feeMicro.toString()),
      s.map((x) => x.queuedMicro.toString()),
      s.map((x) => x.rewardMintedMicro.toString()),
      s.map((x) => x.intentId),
    ],
  );
}

/** Appends (one insert per run of appends) and own-claim cancellations, in the order the closes made them. */
async function applyQueueOps(sql: Sql, ops: readonly QueueOp[]): Promise<void> {
  let appends: Extract<QueueOp, { kind: 'append' }>[] = [];
  for (const op of ops) {
    if (op.kind === 'append') {
      appends.push(op);
      continue;
    }
    await appendPayouts(sql, appends);
    appends = [];
    await cancelOwnClaims(sql, op.wallet, op.amountMicro);
  }
  await appendPayouts(sql, appends);
}

async function recordResults(sql: Sql, results: readonly IntentResult[]): Promise<void> {
  if (results.length === 0) return;
  await sql.query(
    `UPDATE exchange.intents i
        SET status = v.status, reason = v.reason, message = v.message, result = v.result, executed_at = v.at
       FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::text[], $5::jsonb[], $6::timestamptz[])
         AS v(id, status, reason, message, result, at)
      WHERE i.id = v.id AND i.status = 'queued'`,
    [
      results.map((r) => r.intentId),
      results.map((r) => r.status),
      results.map((r) => r.reason),
      results.map((r) => r.message),
      results.map((r) => JSON.stringify(r)),
      results.map((r) => r.executedAt),
    ],
  );
}
