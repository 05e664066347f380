import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { timestamp } from './row-fields';

/** A registered session key as stored; `guardrails` is the stored JSON, validated by its reader. */
export const SessionKeyRow = z.object({
  address: z.string(),
  wallet: z.string(),
  label: z.string().nullable(),
  expires_at: timestamp,
  revoked_at: timestamp.nullable(),
  guardrails: z.unknown(),
});
export type SessionKeyRow = z.infer<typeof SessionKeyRow>;

const COLUMNS = 'address, wallet, label, expires_at, revoked_at, guardrails';

/** A wallet's session keys, newest first. */
export function sessionKeyRows(db: QueryExecutor, wallet: string): Promise<SessionKeyRow[]> {
  return queryRows<SessionKeyRow>(
    db,
    `SELECT ${COLUMNS} FROM exchange.session_keys WHERE wallet = $1 ORDER BY created_at DESC`,
    [wallet],
  );
}

/** One session key of a wallet, by its address (any case). */
export async function sessionKeyRow(
  db: QueryExecutor,
  wallet: string,
  address: string,
): Promise<SessionKeyRow | undefined> {
  const [row] = await queryRows<SessionKeyRow>(
    db,
    `SELECT ${COLUMNS} FROM exchange.session_keys WHERE lower(address) = $1 AND wallet = $2`,
    [address.toLowerCase(), wallet],
  );
  return row;
}
