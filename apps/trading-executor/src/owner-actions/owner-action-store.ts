import type { OwnerActionResult, SignedOwnerActionPayload } from '@paper/contracts';
import type { Sql } from '../database/sql-transaction';

/** The stored result of an owner action that already ran, or null. */
export async function findOwnerActionResult(sql: Sql, actionId: string): Promise<OwnerActionResult | null> {
  const { rows } = await sql<{ result: OwnerActionResult }>(`SELECT result FROM exchange.owner_actions WHERE id = $1`, [actionId.toLowerCase()]);
  return rows[0]?.result ?? null;
}

/** Records an owner action with its result; a row that already exists is left as it is. */
export async function recordOwnerAction(sql: Sql, payload: SignedOwnerActionPayload, result: OwnerActionResult, amountMicro: bigint, enqueuedAt: number): Promise<void> {
  await sql(
    `INSERT INTO exchange.owner_actions (id, wallet, kind, payload, signature, status, reason, message, amount_micro, result, created_at, executed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, to_timestamp($11::double precision / 1000), $12)
     ON CONFLICT (id) DO NOTHING`,
    [
      payload.actionId.toLowerCase(),
      payload.message.wallet.toLowerCase(),
      payload.kind,
      JSON.stringify(payload.message),
      payload.signature.toLowerCase(),
      result.status,
      result.reason,
      result.message,
      amountMicro,
      JSON.stringify(result),
      enqueuedAt,
      result.executedAt,
    ],
  );
}
