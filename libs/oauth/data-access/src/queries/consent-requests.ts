import { type QueryExecutor, queryAffected } from '@paper/sql-rows';

/**
 * Marks a consent request as being approved for `holdSeconds` (one submission at a time, across replicas):
 * true when this call claimed it; false when it has no proven wallet yet or another approval holds it.
 */
export async function claimConsentRequest(db: QueryExecutor, uid: string, holdSeconds: number): Promise<boolean> {
  const claimed = await queryAffected(
    db,
    `UPDATE oauth.consent_requests SET approving_until = now() + make_interval(secs => $2)
        WHERE uid = $1 AND wallet IS NOT NULL AND (approving_until IS NULL OR approving_until < now()) RETURNING uid`,
    [uid, holdSeconds],
  );
  return claimed > 0;
}
