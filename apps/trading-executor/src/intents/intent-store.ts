import type { IntentResult, SignedIntentPayload } from '@paper/contracts';
import type { Sql } from '../database/sql-transaction';

/** The stored result of an intent that already reached a final status, or null. */
export async function findIntentResult(sql: Sql, intentId: string, lock = false): Promise<IntentResult | null> {
  const { rows } = await sql<{ result: IntentResult | null; status: string; reason: string | null; message: string | null; wallet: string; kind: string; executed_at: Date | null }>(
    `SELECT result, status, reason, message, wallet, kind, executed_at FROM exchange.intents WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [intentId.toLowerCase()],
  );
  const row = rows[0];
  if (!row || row.status === 'queued') return null;
  if (row.result) return row.result;
  return {
    intentId: intentId.toLowerCase(),
    kind: row.kind as IntentResult['kind'],
    wallet: row.wallet,
    status: row.status as IntentResult['status'],
    reason: row.reason,
    message: row.message ?? '',
    executedAt: (row.executed_at ?? new Date()).toISOString(),
  };
}

/** Records an intent with its final result; a row that already exists is left as it is (returns false). */
export async function recordIntent(sql: Sql, payload: SignedIntentPayload, result: IntentResult, enqueuedAt: number): Promise<boolean> {
  const { rowCount } = await sql(
    `INSERT INTO exchange.intents (id, wallet, kind, payload, session_key, signature, status, reason, message, result, created_at, expires_at, executed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, to_timestamp($11::double precision / 1000), to_timestamp($12::double precision), $13)
     ON CONFLICT (id) DO NOTHING`,
    [
      payload.intentId.toLowerCase(),
      payload.message.wallet.toLowerCase(),
      payload.kind,
      JSON.stringify(payload.message),
      payload.sessionKey.toLowerCase(),
      payload.signature.toLowerCase(),
      result.status,
      result.reason,
      result.message,
      JSON.stringify(result),
      enqueuedAt,
      storableExpiry(payload.message.expiresAt),
      result.executedAt,
    ],
  );
  return rowCount === 1;
}

/** The signed expiry as stored (a far-future value is clamped so it fits a timestamp; such intents are refused anyway). */
function storableExpiry(expiresAt: string): number {
  const limit = Math.floor(Date.now() / 1000) + 10 * 365 * 86400;
  return expiresAt.length > 12 ? limit : Math.min(Number(expiresAt), limit);
}
