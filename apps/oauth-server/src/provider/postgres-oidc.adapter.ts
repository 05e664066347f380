import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DataSource } from 'typeorm';

interface Row {
  payload: AdapterPayload;
  consumed_at: Date | null;
}

/**
 * oidc-provider storage in PostgreSQL (oauth.oidc_models), so any replica can serve any step of a flow.
 * Expired rows read as absent; the periodic sweep (expired-rows.ts) deletes them. One instance per model kind.
 */
export class PostgresOidcAdapter implements Adapter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly kind: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const grantId = payload.grantId ?? (this.kind === 'Grant' ? id : null);
    await this.dataSource.query(
      `INSERT INTO oauth.oidc_models (kind, id, payload, grant_id, user_code, uid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
       ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
      [this.kind, id, JSON.stringify(payload), grantId, payload.userCode ?? null, payload.uid ?? null, expiresIn ?? null],
    );
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
    await this.dataSource.query(`UPDATE oauth.oidc_models SET consumed_at = now() WHERE kind = $1 AND id = $2`, [this.kind, id]);
  }

  async destroy(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM oauth.oidc_models WHERE kind = $1 AND id = $2`, [this.kind, id]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM oauth.oidc_models WHERE kind = $1 AND grant_id = $2`, [this.kind, grantId]);
  }

  private async findWhere(condition: string, value: string): Promise<AdapterPayload | undefined> {
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
