import { type QueryExecutor, queryRows } from '@paper/sql-rows';

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
         (SELECT COALESCE(SUM(fee_remaining_micro), 0) FROM exchange.payout_queue WHERE paid_at IS NULL) AS queue_fees_micro
    FROM exchange.protocol_state p`;

/** One row per UTC day of the range, computed from the positions themselves (exact, whatever the roll-ups). */
const HISTORY_SQL = `
  WITH bounds AS (SELECT (now() AT TIME ZONE 'utc')::date - ($1::int - 1) AS first_day),
  days AS (
    SELECT d::date AS day FROM bounds, generate_series(bounds.first_day, (now() AT TIME ZONE 'utc')::date, interval '1 day') AS d
  ),
  events AS (
    SELECT (opened_at AT TIME ZONE 'utc')::date AS day, wallet, notional_micro AS volume, NULL::bigint AS pnl, false AS liquidated,
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
const big = (v: Numeric): bigint => (v === null || v === undefined || v === '' ? 0n : BigInt(String(v).split('.')[0]!));

export async function protocolTotals(db: QueryExecutor): Promise<ProtocolTotals> {
  const [t = {} as Record<string, Numeric | boolean>] = await queryRows<Record<string, Numeric | boolean>>(
    db,
    TOTALS_SQL,
  );
  const n = (key: string) => big(t[key] as Numeric);
  return {
    tradingEnabled: t['trading_enabled'] !== false,
    lpMicro: n('lp_micro'),
    parkedMicro: n('parked_micro'),
    feesMicro: n('fees_micro'),
    sweptToStakersMicro: n('swept_to_stakers_micro'),
    paperSupplyMicro: n('paper_supply_micro'),
    lifetimeVolumeMicro: n('lifetime_volume_micro'),
    stakingReserveMicro: n('staking_reserve_micro'),
    freeMicro: n('free_micro'),
    lockedMicro: n('locked_micro'),
    stakedMicro: n('staked_micro'),
    traders: Number(t['traders'] ?? 0),
    openPositions: Number(t['open_positions'] ?? 0),
    openNotionalMicro: n('open_notional'),
    payoutQueueMicro: n('queue_micro'),
    payoutQueueEntries: Number(t['queue_entries'] ?? 0),
    payoutQueueFeesMicro: n('queue_fees_micro'),
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
  const rows = await queryRows<{
    day: string;
    volume: Numeric;
    pnl: Numeric;
    liquidations: Numeric;
    liquidated: Numeric;
    users: Numeric;
    trades: Numeric;
  }>(db, HISTORY_SQL, [days]);
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
