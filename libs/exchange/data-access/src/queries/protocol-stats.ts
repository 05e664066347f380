import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { decimal, int8 } from './row-fields';

const TOTALS_SQL = `
  SELECT p.trading_enabled, p.lp_micro, p.parked_micro, p.fees_micro, p.swept_to_stakers_micro, p.paper_supply_micro,
         p.lifetime_volume_micro, p.staking_reserve_micro,
         (SELECT COALESCE(SUM(free_micro), 0) FROM exchange.accounts) AS free_micro,
         (SELECT COALESCE(SUM(locked_micro), 0) FROM exchange.accounts) AS locked_micro,
         (SELECT COALESCE(SUM(staked_micro), 0) FROM exchange.accounts) AS staked_micro,
         (SELECT COUNT(*) FROM exchange.accounts) AS traders,
         (SELECT COUNT(*) FROM exchange.positions WHERE status = 'open') AS open_positions,
         (SELECT COALESCE(SUM(notional_micro), 0) FROM exchange.positions WHERE status = 'open') AS open_notional,
         (SELECT COALESCE(SUM(remaining_micro), 0) FROM exchange.payout_queue WHERE paid_at IS NULL) AS queue_micro,
         (SELECT COUNT(*) FROM exchange.payout_queue WHERE paid_at IS NULL AND remaining_micro > 0) AS queue_entries,
         (SELECT COALESCE(SUM(fee_remaining_micro), 0) FROM exchange.payout_queue
           WHERE paid_at IS NULL) AS queue_fees_micro
    FROM exchange.protocol_state p`;

/** One row per UTC day of the range, computed from the positions themselves (exact, whatever the roll-ups). */
const HISTORY_SQL = `
  WITH bounds AS (SELECT (now() AT TIME ZONE 'utc')::date - ($1::int - 1) AS first_day),
  days AS (
    SELECT d::date AS day FROM bounds, generate_series(bounds.first_day, (now() AT TIME ZONE 'utc')::date,
      interval '1 day') AS d
  ),
  events AS (
    SELECT (opened_at AT TIME ZONE 'utc')::date AS day, wallet, notional_micro AS volume, NULL::bigint AS pnl,
      false AS liquidated,
           0::bigint AS liquidated_margin
      FROM exchange.positions, bounds WHERE opened_at >= bounds.first_day::timestamp AT TIME ZONE 'utc'
    UNION ALL
    SELECT (closed_at AT TIME ZONE 'utc')::date, wallet, notional_micro, pnl_micro, status = 'liquidated',
           CASE WHEN status = 'liquidated' THEN margin_micro ELSE 0 END
      FROM exchange.positions, bounds WHERE closed_at >= bounds.first_day::timestamp AT TIME ZONE 'utc'
  )
  SELECT days.day::text AS day,
         COALESCE(SUM(e.volume), 0) AS volume,
         COALESCE(SUM(e.pnl), 0) AS pnl,
         COUNT(*) FILTER (WHERE e.liquidated) AS liquidations,
         COALESCE(SUM(e.liquidated_margin), 0) AS liquidated,
         COUNT(DISTINCT e.wallet) AS users,
         COUNT(e.wallet) AS trades
    FROM days LEFT JOIN events e ON e.day = days.day
   GROUP BY days.day ORDER BY days.day`;

/** Exchange-wide totals (micro-USDC) and counts, as get_protocol_stats reports them. */
export interface ProtocolTotals {
  tradingEnabled: boolean;
  lpMicro: bigint;
  parkedMicro: bigint;
  feesMicro: bigint;
  sweptToStakersMicro: bigint;
  paperSupplyMicro: bigint;
  lifetimeVolumeMicro: bigint;
  stakingReserveMicro: bigint;
  freeMicro: bigint;
  lockedMicro: bigint;
  stakedMicro: bigint;
  traders: number;
  openPositions: number;
  openNotionalMicro: bigint;
  payoutQueueMicro: bigint;
  payoutQueueEntries: number;
  payoutQueueFeesMicro: bigint;
}

type Numeric = string | number | null | undefined;

export const ProtocolTotalsRow = z.object({
  trading_enabled: z.boolean(),
  lp_micro: int8,
  parked_micro: int8,
  fees_micro: int8,
  swept_to_stakers_micro: int8,
  paper_supply_micro: int8,
  lifetime_volume_micro: int8,
  staking_reserve_micro: int8,
  free_micro: decimal,
  locked_micro: decimal,
  staked_micro: decimal,
  traders: int8,
  open_positions: int8,
  open_notional: decimal,
  queue_micro: decimal,
  queue_entries: int8,
  queue_fees_micro: decimal,
});
export type ProtocolTotalsRow = z.infer<typeof ProtocolTotalsRow>;

export const ProtocolDayRow = z.object({
  day: z.string(),
  volume: decimal,
  pnl: decimal,
  liquidations: int8,
  liquidated: decimal,
  users: int8,
  trades: int8,
});
export type ProtocolDayRow = z.infer<typeof ProtocolDayRow>;
const big = (v: Numeric): bigint => (v === null || v === undefined || v === '' ? 0n : BigInt(String(v).split('.')[0]!));

export async function protocolTotals(db: QueryExecutor): Promise<ProtocolTotals> {
  const [t] = await queryRows<ProtocolTotalsRow>(db, TOTALS_SQL);
  if (!t) throw new Error('exchange.protocol_state has no row (run the migrations)');
  return {
    tradingEnabled: t.trading_enabled,
    lpMicro: big(t.lp_micro),
    parkedMicro: big(t.parked_micro),
    feesMicro: big(t.fees_micro),
    sweptToStakersMicro: big(t.swept_to_stakers_micro),
    paperSupplyMicro: big(t.paper_supply_micro),
    lifetimeVolumeMicro: big(t.lifetime_volume_micro),
    stakingReserveMicro: big(t.staking_reserve_micro),
    freeMicro: big(t.free_micro),
    lockedMicro: big(t.locked_micro),
    stakedMicro: big(t.staked_micro),
    traders: Number(t.traders),
    openPositions: Number(t.open_positions),
    openNotionalMicro: big(t.open_notional),
    payoutQueueMicro: big(t.queue_micro),
    payoutQueueEntries: Number(t.queue_entries),
    payoutQueueFeesMicro: big(t.queue_fees_micro),
  };
}

/** One UTC day of trading: volume, traders' settled PnL, liquidations (count and margin), users, trades. */
export interface ProtocolDay {
  day: string;
  volumeMicro: bigint;
  traderPnlMicro: bigint;
  liquidations: number;
  liquidatedMarginMicro: bigint;
  users: number;
  trades: number;
}

/** The last `days` UTC days, oldest first, computed from the positions themselves. */
export async function protocolDays(db: QueryExecutor, days: number): Promise<ProtocolDay[]> {
  const rows = await queryRows<ProtocolDayRow>(db, HISTORY_SQL, [days]);
  return rows.map((r) => ({
    day: String(r.day),
    volumeMicro: big(r.volume),
    traderPnlMicro: big(r.pnl),
    liquidations: Number(r.liquidations),
    liquidatedMarginMicro: big(r.liquidated),
    users: Number(r.users),
    trades: Number(r.trades),
  }));
}
