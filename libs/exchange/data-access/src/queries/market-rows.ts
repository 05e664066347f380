import { type Market, type MarketConfig, marketConfig, type MarketStatus } from '@paper/exchange';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { decimal, int8, market } from './row-fields';

/** A market row with the exchange-wide trading switch, as `MARKET_ROWS` selects it. */
export const MarketRow = z.object({
  market,
  status: z.enum(['open', 'paused', 'close-only']) satisfies z.ZodType<MarketStatus>,
  long_oi_cap_micro: int8.nullable(),
  short_oi_cap_micro: int8.nullable(),
  long_oi_micro: int8,
  short_oi_micro: int8,
  trading_enabled: z.boolean(),
});
export type MarketRow = z.infer<typeof MarketRow>;

export const MarketVolumeRow = z.object({ market, volume: decimal });
export type MarketVolumeRow = z.infer<typeof MarketVolumeRow>;

/** Every market with its state and the trading switch (`m` is the markets table, for `FOR UPDATE OF m`). */
export const MARKET_ROWS = `SELECT m.market, m.status, m.long_oi_cap_micro, m.short_oi_cap_micro, m.long_oi_micro,
  m.short_oi_micro, p.trading_enabled
  FROM exchange.markets m CROSS JOIN exchange.protocol_state p`;

export interface MarketState {
  config: MarketConfig;
  longOpenInterestMicro: bigint;
  shortOpenInterestMicro: bigint;
}

/** A market's configuration (status and open-interest caps as stored) and its open interest. */
export function marketStateOf(row: MarketRow): MarketState {
  return {
    config: marketConfig(row.market, {
      status: row.status,
      longOpenInterestCapMicro: row.long_oi_cap_micro === null ? null : BigInt(row.long_oi_cap_micro),
      shortOpenInterestCapMicro: row.short_oi_cap_micro === null ? null : BigInt(row.short_oi_cap_micro),
    }),
    longOpenInterestMicro: BigInt(row.long_oi_micro),
    shortOpenInterestMicro: BigInt(row.short_oi_micro),
  };
}

/** Notional opened plus notional closed (liquidations included) in the last 24 hours, per market that traded. */
export async function marketVolumes24h(db: QueryExecutor): Promise<Partial<Record<Market, bigint>>> {
  const rows = await queryRows<MarketVolumeRow>(
    db,
    `SELECT market,
            COALESCE(SUM(notional_micro) FILTER (WHERE opened_at >= now() - interval '24 hours'), 0)
          + COALESCE(SUM(notional_micro) FILTER (WHERE closed_at >= now() - interval '24 hours'), 0) AS volume
       FROM exchange.positions
      WHERE opened_at >= now() - interval '24 hours' OR closed_at >= now() - interval '24 hours'
      GROUP BY market`,
  );
  return Object.fromEntries(rows.map((r) => [r.market, BigInt(r.volume)]));
}

/** Every market row with the trading switch (no lock). */
export function marketRows(db: QueryExecutor): Promise<MarketRow[]> {
  return queryRows<MarketRow>(db, MARKET_ROWS);
}
