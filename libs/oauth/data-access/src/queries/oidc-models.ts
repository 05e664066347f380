import { type QueryExecutor, queryAffected, queryRow, queryRows } from '@paper/sql-rows';
import type { AdapterPayload } from 'oidc-provider';

/**
 * The storage of oidc-provider (oauth.oidc_models): one row per artefact, keyed by kind and id.
 * Expired rows read as absent; the periodic sweep (expired-rows.ts) deletes them.
 */
export interface OidcModelRow {
  payload: AdapterPayload;
  consumed_at: Date | null;
}

export interface OidcModelWrite {
  kind: string;
  id: string;
  payload: AdapterPayload;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  /** Seconds until the row expires; null keeps it until deleted. */
  expiresIn: number | null;
  /** A client keeps a cleared expiry (it was granted) when its registration is written again. */
  keepsClearedExpiry: boolean;
}

/** The columns an artefact is looked up by. */
export type OidcModelLookup = 'id' | 'uid' | 'user_code';

/** Inserts or replaces an artefact. */
export async function storeOidcModel(db: QueryExecutor, model: OidcModelWrite): Promise<void> {
  await db.query(
    `INSERT INTO oauth.oidc_models (kind, id, payload, grant_id, user_code, uid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int)
         END)
       ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         user_code = EXCLUDED.user_code, uid = EXCLUDED.uid,
         expires_at = CASE WHEN $8::boolean AND oauth.oidc_models.expires_at IS NULL THEN NULL ELSE EXCLUDED.expires_at
           END`,
    [
      model.kind,
      model.id,
      JSON.stringify(model.payload),
      model.grantId,
      model.userCode,
      model.uid,
      model.expiresIn,
      model.keepsClearedExpiry,
    ],
  );
}

/** A client a connection was approved for no longer expires. */
export async function keepClientRegistered(db: QueryExecutor, clientId: string): Promise<void> {
  await db.query(
    `UPDATE oauth.oidc_models SET expires_at = NULL WHERE kind = 'Client' AND id = $1 AND expires_at IS NOT NULL`,
    [clientId],
  );
}

/**
 * The payload of a live (unexpired) artefact, with `consumed` (epoch seconds) once it was consumed; undefined when
 * absent.
 */
export async function liveOidcModel(
  db: QueryExecutor,
  kind: string,
  by: OidcModelLookup,
  value: string,
): Promise<AdapterPayload | undefined> {
  const row = await queryRow<OidcModelRow>(
    db,
    `SELECT payload, consumed_at FROM oauth.oidc_models
        WHERE kind = $1 AND ${by} = $2 AND (expires_at IS NULL OR expires_at > now()) LIMIT 1`,
    [kind, value],
  );
  if (!row) return undefined;
  return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
}

/**
 * Marks a live artefact consumed; true when this call consumed it. Atomic: of two requests consuming the
 * same one at the same time only one gets true.
 */
export async function consumeOidcModel(db: QueryExecutor, kind: string, id: string): Promise<boolean> {
  const consumed = await queryRows<{ id: string }>(
    db,
    `UPDATE oauth.oidc_models SET consumed_at = now()
        WHERE kind = $1 AND id = $2 AND consumed_at IS NULL AND (expires_at IS NULL OR expires_at > now())
          RETURNING id`,
    [kind, id],
  );
  return consumed.length > 0;
}

/** The grant an artefact was issued from (expired or not); null or undefined when it has none or is gone. */
export async function grantIdOfOidcModel(
  db: QueryExecutor,
  kind: string,
  id: string,
): Promise<string | null | undefined> {
  const row = await queryRow<{ grant_id: string | null }>(
    db,
    `SELECT grant_id FROM oauth.oidc_models WHERE kind = $1 AND id = $2`,
    [kind, id],
  );
  return row?.grant_id;
}

export async function deleteOidcModel(db: QueryExecutor, kind: string, id: string): Promise<number> {
  return queryAffected(db, `DELETE FROM oauth.oidc_models WHERE kind = $1 AND id = $2`, [kind, id]);
}

/** Deletes the artefacts of one kind issued from a grant. */
export async function deleteOidcModelsOfGrant(db: QueryExecutor, kind: string, grantId: string): Promise<number> {
  return queryAffected(db, `DELETE FROM oauth.oidc_models WHERE kind = $1 AND grant_id = $2`, [kind, grantId]);
}
