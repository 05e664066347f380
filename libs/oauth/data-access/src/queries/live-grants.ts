import { type QueryExecutor, queryRows } from '@paper/sql-rows';

/**
 * Which of these grants (connections) are live: stored and not expired. A grant revoked by its owner, by
 * `/revoke` or by a reused refresh token is deleted, so it reads as gone. One statement for many grants.
 */
export async function liveGrantIds(db: QueryExecutor, grantIds: readonly string[]): Promise<Set<string>> {
  if (grantIds.length === 0) return new Set();
  const rows = await queryRows<{ id: string }>(
    db,
    `SELECT id FROM oauth.oidc_models
        WHERE kind = 'Grant' AND id = ANY($1::varchar[]) AND (expires_at IS NULL OR expires_at > now())`,
    [[...new Set(grantIds)]],
  );
  return new Set(rows.map((r) => r.id));
}
