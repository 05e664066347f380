import type { Market } from '@paper/exchange';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { int8 } from './row-fields';

/**
 * Open positions of a market whose bust price the marks reached, at most `limit` per side, found by a
 * range scan of positions_open_bust_idx without locks: longs with bust >= low, shorts with bust <= high.
 */
export const LiquidationCandidateRow = z.object({ id: int8, wallet: z.string() });
export type LiquidationCandidateRow = z.infer<typeof LiquidationCandidateRow>;

export function liquidationCandidates(
  db: QueryExecutor,
  market: Market,
  marks: { low: bigint; high: bigint },
  limit: number,
): Promise<LiquidationCandidateRow[]> {
  return queryRows<LiquidationCandidateRow>(
    db,
    `(SELECT id, wallet FROM exchange.positions WHERE market = $1 AND side = 'long' AND status = 'open'
       AND bust_price >= $2 ORDER BY bust_price DESC LIMIT $4)
     UNION ALL
     (SELECT id, wallet FROM exchange.positions WHERE market = $1 AND side = 'short' AND status = 'open'
       AND bust_price <= $3 ORDER BY bust_price LIMIT $4)`,
    [market, marks.low, marks.high, limit],
  );
}

/** Stores positions as liquidated at their exit prices with the PAPER minted to each trader (one statement). */
export async function markLiquidated(
  db: QueryExecutor,
  liquidated: readonly { id: string; exit: bigint; mintedMicro: bigint }[],
): Promise<void> {
  await db.query(
    `UPDATE exchange.positions p SET status = 'liquidated', exit_price = v.exit, pnl_micro = -p.margin_micro,
       reward_minted_micro = v.minted,
            margin_queued_micro = 0, closed_at = now()
       FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS v(id, exit, minted) WHERE p.id = v.id`,
    [
      liquidated.map((l) => l.id),
      liquidated.map((l) => l.exit.toString()),
      liquidated.map((l) => l.mintedMicro.toString()),
    ],
  );
}

/** Takes notional that left the market off its open interest. */
export async function reduceOpenInterest(
  db: QueryExecutor,
  market: Market,
  longMicro: bigint,
  shortMicro: bigint,
): Promise<void> {
  await db.query(
    `UPDATE exchange.markets SET long_oi_micro = long_oi_micro - $2, short_oi_micro = short_oi_micro - $3
       WHERE market = $1`,
    [market, longMicro, shortMicro],
  );
}
