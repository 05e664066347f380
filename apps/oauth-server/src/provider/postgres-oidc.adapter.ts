import { isStorableText, unstorableTextMessage, unstorableTextPath } from '@paper/nest-infra';
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { revokeGrant, type RevokeSessionKeys } from './grant-revocation';
import { TOKEN_TTL } from './token-lifetimes';

interface Row {
  payload: AdapterPayload;
  consumed_at: Date | null;
}

/** What the token endpoint answers when a single-use artefact is presented a second time. */
const REUSED: Record<string, string> = {
  AuthorizationCode: 'authorization code already consumed',
  RefreshToken: 'refresh token already used',
};

/**
 * oidc-provider storage in PostgreSQL (oauth.oidc_models), so any replica can serve any step of a flow.
 * Expired rows read as absent; the periodic sweep (expired-rows.ts) deletes them. One instance per model kind.
 *
 * - Consuming a code or refresh token is atomic: of two requests presenting the same one at the same time
 *   only one consumes it; the other is treated as a reuse (the whole grant is revoked, `invalid_grant`).
 * - Removing a grant revokes its session keys first (awaited).
 * - A registered client expires after TOKEN_TTL.unusedClient unless a connection is approved for it.
 * - An id no row can have (text PostgreSQL cannot store, such as NUL) reads as absent, and a payload
 *   with such text is refused as invalid metadata instead of failing in the database.
 */
export class PostgresOidcAdapter implements Adapter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly kind: string,
    private readonly revokeSessionKeys: RevokeSessionKeys,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const unstorable = unstorableTextPath(payload);
    if (unstorable !== undefined) throw new errors.InvalidClientMetadata(unstorableTextMessage(unstorable));
    const isClient = this.kind === 'Client';
    const grantId = payload.grantId ?? (this.kind === 'Grant' ? id : null);
    // A client keeps a cleared expiry (it was granted) when its registration is written again.
    await this.dataSource.query(
      `INSERT INTO oauth.oidc_models (kind, id, payload, grant_id, user_code, uid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
       ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         user_code = EXCLUDED.user_code, uid = EXCLUDED.uid,
         expires_at = CASE WHEN $8::boolean AND oauth.oidc_models.expires_at IS NULL THEN NULL ELSE EXCLUDED.expires_at END`,
      [this.kind, id, JSON.stringify(payload), grantId, payload.userCode ?? null, payload.uid ?? null, expiresIn ?? (isClient ? TOKEN_TTL.unusedClient : null), isClient],
    );
    if (this.kind === 'Grant' && payload.clientId) {
      await this.dataSource.query(`UPDATE oauth.oidc_models SET expires_at = NULL WHERE kind = 'Client' AND id = $1 AND expires_at IS NOT NULL`, [
        payload.clientId,
      ]);
    }
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('id = $2', id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('uid = $2', uid);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('user_code = $2', userCode);
  }

  async consume(id: string): Promise<void> {
    if (!isStorableText(id)) throw new errors.InvalidGrant(`${this.kind} not found`);
    const [consumed] = (await this.dataSource.query(
      `UPDATE oauth.oidc_models SET consumed_at = now()
        WHERE kind = $1 AND id = $2 AND consumed_at IS NULL AND (expires_at IS NULL OR expires_at > now()) RETURNING id`,
      [this.kind, id],
    )) as [unknown[], number];
    if (consumed.length > 0) return;
    // Another request consumed it first (or its grant was revoked meanwhile): handled as a reuse.
    const rows = (await this.dataSource.query(`SELECT grant_id FROM oauth.oidc_models WHERE kind = $1 AND id = $2`, [this.kind, id])) as {
      grant_id: string | null;
    }[];
    const grantId = rows[0]?.grant_id;
    if (grantId) await revokeGrant(this.dataSource, this.revokeSessionKeys, grantId);
    throw new errors.InvalidGrant(REUSED[this.kind] ?? `${this.kind} already consumed`);
  }

  async destroy(id: string): Promise<void> {
    if (!isStorableText(id)) return;
    if (this.kind === 'Grant') await this.revokeSessionKeys(id);
    await this.dataSource.query(`DELETE FROM oauth.oidc_models WHERE kind = $1 AND id = $2`, [this.kind, id]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if (!isStorableText(grantId)) return;
    await this.dataSource.query(`DELETE FROM oauth.oidc_models WHERE kind = $1 AND grant_id = $2`, [this.kind, grantId]);
  }

  private async findWhere(condition: string, value: string): Promise<AdapterPayload | undefined> {
    if (!isStorableText(value)) return undefined;
    const rows = (await this.dataSource.query(
      `SELECT payload, consumed_at FROM oauth.oidc_models
        WHERE kind = $1 AND ${condition} AND (expires_at IS NULL OR expires_at > now()) LIMIT 1`,
      [this.kind, value],
    )) as Row[];
    const row = rows[0];
    if (!row) return undefined;
    return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
  }
}
