import type { OwnerActionResult } from '@paper/contracts';
import type { OwnerAccount } from '@paper/exchange';
import { type QueryExecutor, queryAffected, queryRow } from '@paper/sql-rows';
import { z } from 'zod';
import { storedOwnerActionResult } from './intent-inbox';
import { int4, int8, ownerActionKind, ownerActionStatus, timestamp } from './row-fields';

/** An `exchange.owner_actions` row locked by the transaction that runs it. */
export const QueuedActionRow = z.object({
  id: z.string(),
  wallet: z.string(),
  kind: ownerActionKind,
  payload: z.unknown(),
  signature: z.string(),
  status: ownerActionStatus,
  result: storedOwnerActionResult.nullable(),
  created_at: timestamp,
  attempts: int4,
});
export type QueuedActionRow = z.infer<typeof QueuedActionRow>;

/** Locks an owner action's row (waiting for the transaction that holds it, or skipping it with `skipLocked`). */
export function lockOwnerAction(
  db: QueryExecutor,
  id: string,
  skipLocked: boolean,
): Promise<QueuedActionRow | undefined> {
  return queryRow<QueuedActionRow>(
    db,
    `SELECT id, wallet, kind, payload, signature, status, result, created_at, attempts FROM exchange.owner_actions
      WHERE id = $1 FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}`,
    [id],
  );
}

/** Stores the final result of a queued owner action (the caller holds its row); false when it was final already. */
export async function storeOwnerActionResult(
  db: QueryExecutor,
  id: string,
  result: OwnerActionResult,
  amountMicro: bigint,
): Promise<boolean> {
  const changed = await queryAffected(
    db,
    `UPDATE exchange.owner_actions SET status = $2, reason = $3, message = $4, amount_micro = $5, result = $6,
       executed_at = $7
      WHERE id = $1 AND status = 'queued'`,
    [id, result.status, result.reason, result.message, amountMicro, JSON.stringify(result), result.executedAt],
  );
  return changed > 0;
}

export const OwnerAccountRow = z.object({
  free_micro: int8,
  locked_micro: int8,
  queued_micro: int8,
  paper_micro: int8,
  staked_micro: int8,
  unclaimed_micro: int8,
});
export type OwnerAccountRow = z.infer<typeof OwnerAccountRow>;

export const OneRow = z.object({ one: int4 });
export type OneRow = z.infer<typeof OneRow>;

/** Locks a wallet's account and reads what its owner actions work with (none when it has no account). */
export async function lockOwnerAccount(db: QueryExecutor, wallet: string): Promise<OwnerAccount | undefined> {
  const row = await queryRow<OwnerAccountRow>(
    db,
    `SELECT free_micro, locked_micro, queued_micro, paper_micro, staked_micro,
       staking_rewards_micro - staking_claimed_micro AS unclaimed_micro
       FROM exchange.accounts WHERE wallet = $1 FOR UPDATE`,
    [wallet],
  );
  return (
    row && {
      wallet,
      freeMicro: BigInt(row.free_micro),
      queuedMicro: BigInt(row.queued_micro),
      lockedMicro: BigInt(row.locked_micro),
      paperMicro: BigInt(row.paper_micro),
      stakedMicro: BigInt(row.staked_micro),
      unclaimedRewardsMicro: BigInt(row.unclaimed_micro),
    }
  );
}

/** Applies an owner action's change of the account (the caller holds its lock). */
export async function applyOwnerActionEffect(
  db: QueryExecutor,
  wallet: string,
  change: { freeMicro: bigint; paperMicro: bigint; stakedMicro: bigint; claimedMicro: bigint },
): Promise<void> {
  await db.query(
    `UPDATE exchange.accounts SET free_micro = free_micro + $2, paper_micro = paper_micro + $3,
       staked_micro = staked_micro + $4,
            staking_claimed_micro = staking_claimed_micro + $5, last_active_at = now() WHERE wallet = $1`,
    [wallet, change.freeMicro, change.paperMicro, change.stakedMicro, change.claimedMicro],
  );
}

/** Whether `address` is a session key registered for `wallet` (revoked or not). */
export async function isSessionKeyOf(db: QueryExecutor, address: string, wallet: string): Promise<boolean> {
  const row = await queryRow<OneRow>(
    db,
    `SELECT 1 AS one FROM exchange.session_keys WHERE address = $1 AND wallet = $2`,
    [address, wallet],
  );
  return row !== undefined;
}
