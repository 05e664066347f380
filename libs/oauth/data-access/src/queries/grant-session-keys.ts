import { type QueryExecutor, queryRow } from '@paper/sql-rows';

/** The newest usable (not revoked, not expired) session key of a grant: its lower-case address. */
export async function activeSessionKeyOfGrant(db: QueryExecutor, grantId: string): Promise<string | undefined> {
  const row = await queryRow<{ address: string }>(
    db,
    `SELECT address FROM oauth.session_key_secrets WHERE grant_id = $1 AND revoked_at IS NULL AND expires_at > now()
        ORDER BY created_at DESC LIMIT 1`,
    [grantId],
  );
  return row?.address;
}
