import type { OwnerActionResult, SignedOwnerActionPayload } from '@paper/contracts';
import type { Sql } from '../database/sql-transaction';

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

/** Stores the final result of an owner action in its row (the caller holds the row lock). */
export async function storeResult(sql: Sql, id: string, result: OwnerActionResult, amountMicro: bigint): Promise<void> {
  await sql(
    `UPDATE exchange.owner_actions SET status = $2, reason = $3, message = $4, amount_micro = $5, result = $6, executed_at = $7
      WHERE id = $1 AND status = 'queued'`,
    [id, result.status, result.reason, result.message, amountMicro, JSON.stringify(result), result.executedAt],
  );
}
