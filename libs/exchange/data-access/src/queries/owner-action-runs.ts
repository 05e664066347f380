import type { OwnerActionResult, SignedOwnerActionPayload } from '@paper/contracts';
import type { OwnerAccount } from '@paper/exchange';
import { type QueryExecutor, queryAffected, queryRow } from '@paper/sql-rows';

/** An `exchange.owner_actions` row locked by the transaction that runs it. */
export interface QueuedActionRow {
  id: string;
  wallet: string;
  kind: SignedOwnerActionPayload['kind'];
  payload: unknown;
  signature: string;
  status: 'queued' | 'executed' | 'refused';
  result: OwnerActionResult | null;
  created_at: Date;
  attempts: number;
}

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
    `UPDATE exchange.owner_actions SET status = $2, reason = $3, message = $4, amount_micro = $5, result = $6, executed_at = $7
      WHERE id = $1 AND status = 'queued'`,
    [id, result.status, result.reason, result.message, amountMicro, JSON.stringify(result), result.executedAt],
  );
  return changed > 0;
}

interface OwnerAccountRow {
  free_micro: string;
  locked_micro: string;
  queued_micro: string;
  paper_micro: string;
  staked_micro: string;
  unclaimed_micro: string;
}

/** Locks a wallet's account and reads what its owner actions work with (none when it has no account). */
export async function lockOwnerAccount(db: QueryExecutor, wallet: string): Promise<OwnerAccount | undefined> {
  const row = await queryRow<OwnerAccountRow>(
    db,
    `SELECT free_micro, locked_micro, queued_micro, paper_micro, staked_micro, staking_rewards_micro - staking_claimed_micro AS unclaimed_micro
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
    `UPDATE exchange.accounts SET free_micro = free_micro + $2, paper_micro = paper_micro + $3, staked_micro = staked_micro + $4,
            staking_claimed_micro = staking_claimed_micro + $5, last_active_at = now() WHERE wallet = $1`,
    [wallet, change.freeMicro, change.paperMicro, change.stakedMicro, change.claimedMicro],
  );
}

/** Whether `address` is a session key registered for `wallet` (revoked or not). */
export async function isSessionKeyOf(db: QueryExecutor, address: string, wallet: string): Promise<boolean> {
  const row = await queryRow<{ one: number }>(
    db,
    `SELECT 1 AS one FROM exchange.session_keys WHERE address = $1 AND wallet = $2`,
    [address, wallet],
  );
  return row !== undefined;
}
