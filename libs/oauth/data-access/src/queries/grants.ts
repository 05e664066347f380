import { type QueryExecutor, queryAffected, queryRows } from '@paper/sql-rows';

/** A stored grant (a connection): the provider's payload as far as the connection pages read it. */
export interface GrantRow {
  id: string;
  payload: { clientId?: string; iat?: number; openid?: { scope?: string }; resources?: Record<string, string> };
  expires_at: Date | null;
}

/** A connection as the pages show it: the client, the scopes granted (OpenID and resource scopes, once each), when. */
export interface AccountGrant {
  grantId: string;
  clientId: string;
  scopes: string[];
  connectedAt: Date | null;
  expiresAt: Date | null;
}

/** A registered client as the connection pages name it. */
export interface RegisteredClientRow {
  id: string;
  payload: { client_name?: string; redirect_uris?: string[] };
}

/** The live grants of an account (wallet), newest first. */
export async function grantsOfAccount(db: QueryExecutor, accountId: string): Promise<AccountGrant[]> {
  const rows = await queryRows<GrantRow>(
    db,
    `SELECT id, payload, expires_at FROM oauth.oidc_models
        WHERE kind = 'Grant' AND payload->>'accountId' = $1 AND (expires_at IS NULL OR expires_at > now())
        ORDER BY (payload->>'iat')::bigint DESC`,
    [accountId],
  );
  return rows.map(accountGrant);
}

function accountGrant(row: GrantRow): AccountGrant {
  const scopes = new Set<string>();
  for (const s of (row.payload.openid?.scope ?? '').split(' ')) if (s) scopes.add(s);
  for (const value of Object.values(row.payload.resources ?? {}))
    for (const s of value.split(' ')) if (s) scopes.add(s);
  return {
    grantId: row.id,
    clientId: row.payload.clientId ?? '',
    scopes: [...scopes],
    connectedAt: row.payload.iat ? new Date(row.payload.iat * 1000) : null,
    expiresAt: row.expires_at,
  };
}

/** The registered clients among these ids (expired or not). */
export function registeredClients(db: QueryExecutor, clientIds: string[]): Promise<RegisteredClientRow[]> {
  return queryRows<RegisteredClientRow>(
    db,
    `SELECT id, payload FROM oauth.oidc_models WHERE kind = 'Client' AND id = ANY($1)`,
    [clientIds],
  );
}

/** Whether the grant belongs to this account (expired or not). */
export async function isGrantOfAccount(db: QueryExecutor, grantId: string, accountId: string): Promise<boolean> {
  const owned = await queryAffected(
    db,
    `SELECT 1 FROM oauth.oidc_models WHERE kind = 'Grant' AND id = $1 AND payload->>'accountId' = $2`,
    [grantId, accountId],
  );
  return owned > 0;
}

/** Deletes a grant and everything issued from it (codes, refresh tokens, ...); returns how many rows went. */
export function deleteGrantAndIssued(db: QueryExecutor, grantId: string): Promise<number> {
  return queryAffected(db, `DELETE FROM oauth.oidc_models WHERE grant_id = $1`, [grantId]);
}
