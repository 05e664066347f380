import { type QueryExecutor, queryRow } from '@paper/sql-rows';

/** A stored key set of the authorization server (oauth.signing_keys); `material` is the stored JSON. */
export interface SigningKeyRow<M> {
  material: M;
}

/**
 * Stores the candidate key material under this id unless another replica did first; returns whichever
 * is stored (material under one id is always written in the candidate's shape).
 */
export async function signingKeyStoredOnce<M extends object>(
  db: QueryExecutor,
  id: string,
  purpose: 'jwt' | 'cookie',
  candidate: M,
): Promise<M> {
  await db.query(
    `INSERT INTO oauth.signing_keys (id, purpose, material) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
    [id, purpose, JSON.stringify(candidate)],
  );
  const row = await queryRow<SigningKeyRow<M>>(db, `SELECT material FROM oauth.signing_keys WHERE id = $1`, [id]);
  return row!.material;
}
