import { type QueryExecutor, queryAffected, queryRows } from '@paper/sql-rows';

/** A session key revoked here and not yet confirmed revoked by the exchange. */
export interface PendingRevocation {
  sessionKey: string;
  wallet: string;
  grantId: string;
  attempts: number;
}

/** Which session keys to revoke: every active key of a grant, or one key of a wallet. */
export type RevokedKeys = { grantId: string } | { wallet: string; address: string };

interface PendingRow {
  session_key: string;
  wallet: string;
  grant_id: string;
  attempts: number;
}

const toPending = (r: PendingRow): PendingRevocation => ({
  sessionKey: r.session_key,
  wallet: r.wallet,
  grantId: r.grant_id,
  attempts: r.attempts,
});

/**
 * Marks the keys revoked and records their pending revocation in one statement (one transaction): a key is
 * never revoked here without the record that makes the exchange revoke it too. The sweeper leaves a new
 * record alone for `sweepAfterMs` (the request that revoked it wakes the exchange and waits meanwhile).
 * Returns the keys revoked now (none when they were revoked already).
 */
export async function revokeSessionKeys(
  db: QueryExecutor,
  which: RevokedKeys,
  sweepAfterMs: number,
): Promise<PendingRevocation[]> {
  const [where, params] =
    'grantId' in which
      ? ['grant_id = $2', [which.grantId]]
      : ['address = $2 AND wallet = $3', [which.address.toLowerCase(), which.wallet.toLowerCase()]];
  const rows = await queryRows<PendingRow>(
    db,
    `WITH revoked AS (
       UPDATE oauth.session_key_secrets SET revoked_at = now() WHERE ${where} AND revoked_at IS NULL
       RETURNING address, wallet, grant_id)
     INSERT INTO oauth.pending_revocations (session_key, wallet, grant_id, next_attempt_at)
       SELECT address, wallet, grant_id, now() + make_interval(secs => $1::double precision / 1000) FROM revoked
     ON CONFLICT (session_key) DO UPDATE SET confirmed_at = NULL
     RETURNING session_key, wallet, grant_id, attempts`,
    [sweepAfterMs, ...params],
  );
  return rows.map(toPending);
}

/** Unconfirmed revocations of a wallet's grant or key (a revocation still completing). */
export async function unconfirmedRevocations(
  db: QueryExecutor,
  which: RevokedKeys & { wallet: string },
): Promise<PendingRevocation[]> {
  const [where, value] =
    'grantId' in which ? ['grant_id = $2', which.grantId] : ['session_key = $2', which.address.toLowerCase()];
  const rows = await queryRows<PendingRow>(
    db,
    `SELECT session_key, wallet, grant_id, attempts FROM oauth.pending_revocations
        WHERE wallet = $1 AND ${where} AND confirmed_at IS NULL`,
    [which.wallet.toLowerCase(), value],
  );
  return rows.map(toPending);
}

/** The exchange has the key revoked: the record is done. */
export async function confirmRevocation(db: QueryExecutor, sessionKey: string): Promise<void> {
  await db.query(
    `UPDATE oauth.pending_revocations SET confirmed_at = now() WHERE session_key = $1 AND confirmed_at IS NULL`,
    [sessionKey],
  );
}

export interface RevocationBackoff {
  /** The wait after the first re-send (ms); it doubles with every attempt. */
  baseMs: number;
  maxMs: number;
}

/**
 * Claims unconfirmed revocations that are due (at most `limit`, skipping rows another replica is claiming)
 * and moves each one's next attempt out with exponential backoff before it is re-sent.
 */
export async function claimDueRevocations(
  db: QueryExecutor,
  limit: number,
  backoff: RevocationBackoff,
): Promise<PendingRevocation[]> {
  const rows = await queryRows<PendingRow>(
    db,
    `UPDATE oauth.pending_revocations p
        SET attempts = p.attempts + 1,
            next_attempt_at = now() + make_interval(secs => least($3::double precision, $2::double precision * power(2,
              least(p.attempts, 20))) / 1000)
      WHERE p.session_key IN (
        SELECT session_key FROM oauth.pending_revocations
         WHERE confirmed_at IS NULL AND next_attempt_at <= now()
         ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING p.session_key, p.wallet, p.grant_id, p.attempts`,
    [limit, backoff.baseMs, backoff.maxMs],
  );
  return rows.map(toPending);
}

/** Deletes records confirmed more than `olderThanDays` ago; returns the count. */
export function deleteConfirmedRevocations(db: QueryExecutor, olderThanDays = 7): Promise<number> {
  return queryAffected(
    db,
    `DELETE FROM oauth.pending_revocations WHERE confirmed_at < now() - make_interval(days => $1::int)`,
    [olderThanDays],
  );
}
