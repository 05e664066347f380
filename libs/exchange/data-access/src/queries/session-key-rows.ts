import { type QueryExecutor, queryAffected, queryRows } from '@paper/sql-rows';
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

/** Who holds a session key, and whether it was revoked: row-locked until the transaction ends. */
export const SessionKeyHolderRow = z.object({ wallet: z.string(), revoked_at: timestamp.nullable() });
export type SessionKeyHolderRow = z.infer<typeof SessionKeyHolderRow>;

/** The holder of a session key (lower-case address), locked so a registration and a revocation serialize. */
export async function lockSessionKeyHolder(
  db: QueryExecutor,
  address: string,
): Promise<SessionKeyHolderRow | undefined> {
  const [row] = await queryRows<SessionKeyHolderRow>(
    db,
    `SELECT wallet, revoked_at FROM exchange.session_keys WHERE address = $1 FOR UPDATE`,
    [address],
  );
  return row;
}

/** An owner's approval of a session key, as the exchange stores it (addresses lower case). */
export interface SessionKeyApproval {
  address: string;
  wallet: string;
  /** The guardrails exactly as the owner signed them. */
  guardrails: unknown;
  /** Unix seconds. */
  expiresAt: number;
  approvalSignature: string;
  label: string | null;
}

/** Stores a session key's approval; a new approval of the same key replaces its terms. */
export async function upsertSessionKey(db: QueryExecutor, key: SessionKeyApproval): Promise<void> {
  await db.query(
    `INSERT INTO exchange.session_keys (address, wallet, guardrails, expires_at, approval_signature, label)
     VALUES ($1, $2, $3, to_timestamp($4::double precision), $5, $6)
     ON CONFLICT (address) DO UPDATE SET guardrails = EXCLUDED.guardrails, expires_at = EXCLUDED.expires_at,
            approval_signature = EXCLUDED.approval_signature, label = EXCLUDED.label`,
    [key.address, key.wallet, JSON.stringify(key.guardrails), key.expiresAt, key.approvalSignature, key.label],
  );
}

/** Marks a wallet's session key revoked (keeping the first revocation time); false when the wallet has no such key. */
export async function revokeSessionKey(db: QueryExecutor, address: string, wallet: string): Promise<boolean> {
  const revoked = await queryAffected(
    db,
    `UPDATE exchange.session_keys SET revoked_at = coalesce(revoked_at, now()) WHERE address = $1 AND wallet = $2 RETURNING address`,
    [address, wallet],
  );
  return revoked > 0;
}
