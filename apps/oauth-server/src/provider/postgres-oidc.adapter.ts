import { isStorableText, unstorableTextMessage, unstorableTextPath } from '@paper/nest-infra';
import {
  consumeOidcModel,
  deleteOidcModel,
  deleteOidcModelsOfGrant,
  grantIdOfOidcModel,
  keepClientRegistered,
  liveOidcModel,
  type OidcModelLookup,
  storeOidcModel,
} from '@paper/oauth-data';
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { revokeGrant, type RevokeSessionKeys } from './grant-revocation';
import { TOKEN_TTL } from './token-lifetimes';

/** What the token endpoint answers when a single-use artefact is presented a second time. */
const REUSED: Record<string, string> = {
  AuthorizationCode: 'authorization code already consumed',
  RefreshToken: 'refresh token already used',
};

/**
 * oidc-provider storage in PostgreSQL (oauth.oidc_models, queries in @paper/oauth-data), so any replica can
 * serve any step of a flow. Expired rows read as absent; the periodic sweep (deleteExpiredRows) deletes them.
 * One instance per model kind.
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
    await storeOidcModel(this.dataSource, {
      kind: this.kind,
      id,
      payload,
      grantId: payload.grantId ?? (this.kind === 'Grant' ? id : null),
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresIn: expiresIn ?? (isClient ? TOKEN_TTL.unusedClient : null),
      // A client keeps a cleared expiry (it was granted) when its registration is written again.
      keepsClearedExpiry: isClient,
    });
    if (this.kind === 'Grant' && payload.clientId) await keepClientRegistered(this.dataSource, payload.clientId);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.findBy('id', id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findBy('uid', uid);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findBy('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    if (!isStorableText(id)) throw new errors.InvalidGrant(`${this.kind} not found`);
    if (await consumeOidcModel(this.dataSource, this.kind, id)) return;
    // Another request consumed it first (or its grant was revoked meanwhile): handled as a reuse.
    const grantId = await grantIdOfOidcModel(this.dataSource, this.kind, id);
    if (grantId) await revokeGrant(this.dataSource, this.revokeSessionKeys, grantId);
    throw new errors.InvalidGrant(REUSED[this.kind] ?? `${this.kind} already consumed`);
  }

  async destroy(id: string): Promise<void> {
    if (!isStorableText(id)) return;
    if (this.kind === 'Grant') await this.revokeSessionKeys(id);
    await deleteOidcModel(this.dataSource, this.kind, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if (!isStorableText(grantId)) return;
    await deleteOidcModelsOfGrant(this.dataSource, this.kind, grantId);
  }

  private async findBy(by: OidcModelLookup, value: string): Promise<AdapterPayload | undefined> {
    if (!isStorableText(value)) return undefined;
    return liveOidcModel(this.dataSource, this.kind, by, value);
  }
}
