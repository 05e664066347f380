import type { QueryExecutor } from '@paper/sql-rows';

/** One UTC day's roll-up ($1 = day). Volume counts notional at open; trades count opens and closes. */
const ROLLUP_DAY_SQL = `
  WITH bounds AS (SELECT ($1::date AT TIME ZONE 'UTC') AS d0, (($1::date + 1) AT TIME ZONE 'UTC') AS d1),
  opened AS (SELECT p.wallet, p.notional_micro FROM exchange.positions p, bounds b
    WHERE p.opened_at >= b.d0 AND p.opened_at < b.d1),
  ended AS (SELECT p.wallet, p.status, p.pnl_micro, p.fee_micro, p.margin_micro FROM exchange.positions p, bounds b
             WHERE p.closed_at >= b.d0 AND p.closed_at < b.d1)
  INSERT INTO exchange.daily_stats (day, volume_micro, trader_pnl_micro, fees_micro, liquidations, liquidated_micro,
    users, new_users, trades, lp_micro)
  SELECT $1::date,
         (SELECT coalesce(sum(notional_micro), 0) FROM opened),
         (SELECT coalesce(sum(pnl_micro), 0) FROM ended),
         (SELECT coalesce(sum(fee_micro), 0) FROM ended),
         (SELECT count(*) FROM ended WHERE status = 'liquidated'),
         (SELECT coalesce(sum(margin_micro), 0) FROM ended WHERE status = 'liquidated'),
         (SELECT count(*) FROM (SELECT wallet FROM opened UNION SELECT wallet FROM ended) u),
         (SELECT count(*) FROM exchange.accounts a, bounds b WHERE a.created_at >= b.d0 AND a.created_at < b.d1),
         (SELECT count(*) FROM opened) + (SELECT count(*) FROM ended WHERE status = 'closed'),
         (SELECT lp_micro FROM exchange.protocol_state WHERE id = 1)
  ON CONFLICT (day) DO UPDATE SET
    volume_micro = EXCLUDED.volume_micro, trader_pnl_micro = EXCLUDED.trader_pnl_micro,
      fees_micro = EXCLUDED.fees_micro,
    liquidations = EXCLUDED.liquidations, liquidated_micro = EXCLUDED.liquidated_micro, users = EXCLUDED.users,
    new_users = EXCLUDED.new_users, trades = EXCLUDED.trades,
    lp_micro = CASE WHEN EXCLUDED.day >= (now() AT TIME ZONE 'UTC')::date THEN EXCLUDED.lp_micro
      ELSE exchange.daily_stats.lp_micro END`;

/** Recomputes one UTC day's row of `exchange.daily_stats` (idempotent). */
export async function rollUpDay(db: QueryExecutor, day: string): Promise<void> {
  await db.query(ROLLUP_DAY_SQL, [day]);
}

/** Recomputes the lifetime volume of the protocol from every position ever opened. */
export async function refreshLifetimeVolume(db: QueryExecutor): Promise<void> {
  await db.query(
    `UPDATE exchange.protocol_state SET lifetime_volume_micro = (SELECT coalesce(sum(notional_micro), 0)
       FROM exchange.positions) WHERE id = 1`,
  );
}
