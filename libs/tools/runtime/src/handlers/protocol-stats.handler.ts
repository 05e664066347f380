import { Inject, Injectable } from '@nestjs/common';
import { GET_PROTOCOL_STATS, type ToolData, type ToolInput } from '@paper/contracts';
import { DataSource } from 'typeorm';
import { toBig, usd, usdText } from '../money/money-format';
import type { ToolHandler, ToolOutcome } from './tool-handler';

type Data = ToolData<typeof GET_PROTOCOL_STATS>;

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

@Injectable()
export class ProtocolStatsHandler implements ToolHandler<typeof GET_PROTOCOL_STATS> {
  readonly tool = GET_PROTOCOL_STATS;

  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async run(input: ToolInput<typeof GET_PROTOCOL_STATS>): Promise<ToolOutcome<Data>> {
    const [totalsRows, historyRows] = await Promise.all([this.db.query(TOTALS_SQL), this.db.query(HISTORY_SQL, [input.days])]);
    const t = (totalsRows as Record<string, unknown>[])[0] ?? {};
    const free = toBig(t['free_micro']);
    const locked = toBig(t['locked_micro']);
    const lp = toBig(t['lp_micro']);
    const parked = toBig(t['parked_micro']);
    const reserve = toBig(t['staking_reserve_micro']);
    const tvl = free + locked + lp + parked + reserve;
    const history = (historyRows as Record<string, unknown>[]).map((r) => ({
      day: String(r['day']),
      volumeUsd: usd(toBig(r['volume'])),
      traderPnlUsd: usd(toBig(r['pnl'])),
      liquidations: Number(r['liquidations']),
      liquidatedUsd: usd(toBig(r['liquidated'])),
      users: Number(r['users']),
      trades: Number(r['trades']),
    }));
    const openPositions = Number(t['open_positions'] ?? 0);
    const periodVolume = (historyRows as Record<string, unknown>[]).reduce((s, r) => s + toBig(r['volume']), 0n);
    return {
      summary:
        `TVL ${usdText(tvl)} (LP ${usdText(lp)}, locked margin ${usdText(locked)}); ${openPositions} open position${openPositions === 1 ? '' : 's'}; ` +
        `lifetime volume ${usdText(toBig(t['lifetime_volume_micro']))}; ${usdText(periodVolume)} traded in the last ${input.days} day${input.days === 1 ? '' : 's'}.`,
      data: {
        tradingEnabled: t['trading_enabled'] !== false,
        tvlUsd: usd(tvl),
        marginLockedUsd: usd(locked),
        traderBalancesUsd: usd(free + locked),
        lpUsd: usd(lp),
        lpParkedUsd: usd(parked),
        lifetimeVolumeUsd: usd(toBig(t['lifetime_volume_micro'])),
        openPositions,
        openNotionalUsd: usd(toBig(t['open_notional'])),
        feesUsd: usd(toBig(t['fees_micro'])),
        sweptToStakersUsd: usd(toBig(t['swept_to_stakers_micro'])),
        stakingReserveUsd: usd(reserve),
        paperSupply: usd(toBig(t['paper_supply_micro'])),
        paperStaked: usd(toBig(t['staked_micro'])),
        payoutQueueUsd: usd(toBig(t['queue_micro'])),
        payoutQueueEntries: Number(t['queue_entries'] ?? 0),
        payoutQueueFeesUsd: usd(toBig(t['queue_fees_micro'])),
        traders: Number(t['traders'] ?? 0),
        days: input.days,
        history,
      },
    };
  }
}
