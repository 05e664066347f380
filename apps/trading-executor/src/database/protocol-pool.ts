import type { PoolState } from '@paper/exchange';
import type { Sql } from './sql-transaction';

export interface LockedPool extends PoolState {
  readonly tradingEnabled: boolean;
}

/** Locks the protocol singleton (always the last lock a transaction takes) and reads the pool state. */
export async function lockPool(sql: Sql): Promise<LockedPool> {
  const { rows } = await sql(
    `SELECT lp_micro, parked_micro, reward_high_water_micro, fees_pending_micro, trading_enabled,
            EXISTS (SELECT 1 FROM exchange.payout_queue WHERE paid_at IS NULL) AS queue_not_empty
       FROM exchange.protocol_state WHERE id = 1 FOR UPDATE`,
  );
  const row = rows[0] as Record<string, string | boolean>;
  return {
    lpMicro: BigInt(row['lp_micro'] as string),
    parkedMicro: BigInt(row['parked_micro'] as string),
    highWaterMicro: BigInt(row['reward_high_water_micro'] as string),
    feesPendingMicro: BigInt(row['fees_pending_micro'] as string),
    queueNotEmpty: row['queue_not_empty'] as boolean,
    tradingEnabled: row['trading_enabled'] as boolean,
  };
}

export interface PoolTotals {
  /** Win fees collected (lifetime counter). */
  feesCollectedMicro?: bigint;
  /** PAPER minted (supply counter). */
  paperMintedMicro?: bigint;
  sweptToStakersMicro?: bigint;
}

/** Writes the pool state back and adds to the lifetime counters. */
export async function savePool(sql: Sql, pool: PoolState, totals: PoolTotals = {}): Promise<void> {
  await sql(
    `UPDATE exchange.protocol_state
        SET lp_micro = $1, parked_micro = $2, reward_high_water_micro = $3, fees_pending_micro = $4,
            fees_micro = fees_micro + $5, paper_supply_micro = paper_supply_micro + $6,
            swept_to_stakers_micro = swept_to_stakers_micro + $7, updated_at = now()
      WHERE id = 1`,
    [
      pool.lpMicro,
      pool.parkedMicro,
      pool.highWaterMicro,
      pool.feesPendingMicro,
      totals.feesCollectedMicro ?? 0n,
      totals.paperMintedMicro ?? 0n,
      totals.sweptToStakersMicro ?? 0n,
    ],
  );
}
