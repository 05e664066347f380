import type { PoolState } from '@paper/exchange';
import { type QueryExecutor, queryRow } from '@paper/sql-rows';
import { z } from 'zod';
import { int8 } from './row-fields';

/** The pool state read under the protocol lock, and whether trading is enabled. */
export interface LockedPool extends PoolState {
  readonly tradingEnabled: boolean;
}

export const ProtocolPoolRow = z.object({
  lp_micro: int8,
  parked_micro: int8,
  reward_high_water_micro: int8,
  fees_pending_micro: int8,
  staking_reserve_micro: int8,
  trading_enabled: z.boolean(),
});
export type ProtocolPoolRow = z.infer<typeof ProtocolPoolRow>;

export const QueueNotEmptyRow = z.object({ queue_not_empty: z.boolean() });
export type QueueNotEmptyRow = z.infer<typeof QueueNotEmptyRow>;

export const PayoutFundsRow = z.object({ funds: int8 });
export type PayoutFundsRow = z.infer<typeof PayoutFundsRow>;

/**
 * Locks the protocol singleton and reads the pool state, then (in a second statement) whether the
 * payout queue is empty. Every change of the queue is made under this lock, so the second statement,
 * whose READ COMMITTED snapshot is taken after the lock was granted, sees the queue as the previous
 * holder left it. (Evaluated in the locking statement itself, the check would use that statement's
 * snapshot, taken before it waited for the lock, and could miss an entry just queued.)
 */
export async function lockPool(db: QueryExecutor): Promise<LockedPool> {
  const row = (await queryRow<ProtocolPoolRow>(
    db,
    `SELECT lp_micro, parked_micro, reward_high_water_micro, fees_pending_micro, staking_reserve_micro, trading_enabled
       FROM exchange.protocol_state WHERE id = 1 FOR UPDATE`,
  ))!;
  return {
    lpMicro: BigInt(row.lp_micro),
    parkedMicro: BigInt(row.parked_micro),
    highWaterMicro: BigInt(row.reward_high_water_micro),
    feesPendingMicro: BigInt(row.fees_pending_micro),
    stakingReserveMicro: BigInt(row.staking_reserve_micro),
    queueNotEmpty: await payoutQueueNotEmpty(db),
    tradingEnabled: row.trading_enabled,
  };
}

/** Whether some payout queue entry is unpaid. */
export async function payoutQueueNotEmpty(db: QueryExecutor): Promise<boolean> {
  const row = await queryRow<QueueNotEmptyRow>(
    db,
    `SELECT EXISTS (SELECT 1 FROM exchange.payout_queue WHERE paid_at IS NULL) AS queue_not_empty`,
  );
  return row!.queue_not_empty;
}

/** What can pay the payout queue now (LP and parked losses), read without a lock. */
export async function payoutFunds(db: QueryExecutor): Promise<bigint> {
  const row = await queryRow<PayoutFundsRow>(
    db,
    `SELECT lp_micro + parked_micro AS funds FROM exchange.protocol_state WHERE id = 1`,
  );
  return BigInt(row!.funds);
}

export interface PoolTotals {
  /** Win fees collected (lifetime counter). */
  feesCollectedMicro?: bigint;
  /** PAPER minted (supply counter). */
  paperMintedMicro?: bigint;
  /** Staking reserve (LP above the cap) paid to stakers (lifetime counter). */
  sweptToStakersMicro?: bigint;
}

/** Writes the pool state back and adds to the lifetime counters. */
export async function savePool(db: QueryExecutor, pool: PoolState, totals: PoolTotals = {}): Promise<void> {
  await db.query(
    `UPDATE exchange.protocol_state
        SET lp_micro = $1, parked_micro = $2, reward_high_water_micro = $3, fees_pending_micro = $4,
          staking_reserve_micro = $5,
            fees_micro = fees_micro + $6, paper_supply_micro = paper_supply_micro + $7,
            swept_to_stakers_micro = swept_to_stakers_micro + $8, updated_at = now()
      WHERE id = 1`,
    [
      pool.lpMicro,
      pool.parkedMicro,
      pool.highWaterMicro,
      pool.feesPendingMicro,
      pool.stakingReserveMicro,
      totals.feesCollectedMicro ?? 0n,
      totals.paperMintedMicro ?? 0n,
      totals.sweptToStakersMicro ?? 0n,
    ],
  );
}
