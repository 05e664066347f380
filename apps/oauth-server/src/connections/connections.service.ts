import { Injectable } from '@nestjs/common';
import { SessionKeySecretEntity, type StoredGuardrails } from '@paper/oauth-data';
import { DataSource } from 'typeorm';
import { redirectHostLabel } from '../pages/redirect-host';
import { revokeGrant } from '../provider/grant-revocation';
import { SessionKeysService } from '../session-keys/session-keys.service';

export type KeyState = 'active' | 'expired' | 'revoked';

export interface SessionKeySummary {
  address: string;
  label: string | null;
  guardrails: StoredGuardrails;
  createdAt: Date;
  expiresAt: Date;
  state: KeyState;
  grantId: string;
}

export interface ConnectionSummary {
  grantId: string;
  clientId: string;
  clientName: string;
  redirectHosts: string[];
  scopes: string[];
  connectedAt: Date | null;
  expiresAt: Date | null;
  sessionKey: SessionKeySummary | null;
}

interface GrantRow {
  id: string;
  payload: { clientId?: string; iat?: number; openid?: { scope?: string }; resources?: Record<string, string> };
  expires_at: Date | null;
}

/** A wallet's connections (OAuth grants) and trading keys, and their revocation. */
@Injectable()
export class ConnectionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sessionKeys: SessionKeysService,
  ) {}

  async list(wallet: string): Promise<{ connections: ConnectionSummary[]; keys: SessionKeySummary[] }> {
    const grants = (await this.dataSource.query(
      `SELECT id, payload, expires_at FROM oauth.oidc_models
        WHERE kind = 'Grant' AND payload->>'accountId' = $1 AND (expires_at IS NULL OR expires_at > now())
        ORDER BY (payload->>'iat')::bigint DESC`,
      [wallet],
    )) as GrantRow[];
    const clientIds = [...new Set(grants.map((g) => g.payload.clientId).filter((c): c is string => Boolean(c)))];
    const clients = (await this.dataSource.query(`SELECT id, payload FROM oauth.oidc_models WHERE kind = 'Client' AND id = ANY($1)`, [clientIds])) as {
      id: string;
      payload: { client_name?: string; redirect_uris?: string[] };
    }[];
    const clientById = new Map(clients.map((c) => [c.id, c.payload]));
    const keys = (await this.dataSource.getRepository(SessionKeySecretEntity).find({ where: { wallet }, order: { createdAt: 'DESC' } })).map(summariseKey);

    const connections = grants.map((grant): ConnectionSummary => {
      const client = clientById.get(grant.payload.clientId ?? '');
      const scopes = new Set<string>();
      for (const s of (grant.payload.openid?.scope ?? '').split(' ')) if (s) scopes.add(s);
      for (const value of Object.values(grant.payload.resources ?? {})) for (const s of value.split(' ')) if (s) scopes.add(s);
      return {
        grantId: grant.id,
        clientId: grant.payload.clientId ?? '',
        clientName: client?.client_name?.trim() || 'An unnamed app',
        redirectHosts: [...new Set((client?.redirect_uris ?? []).map(redirectHostLabel))],
        scopes: [...scopes],
        connectedAt: grant.payload.iat ? new Date(grant.payload.iat * 1000) : null,
        expiresAt: grant.expires_at,
        sessionKey: keys.find((k) => k.grantId === grant.id && k.state === 'active') ?? null,
      };
    });
    return { connections, keys };
  }

  /** Ends a connection: its grant, codes and refresh tokens go, and its trading key is revoked. */
  async revokeConnection(wallet: string, grantId: string): Promise<boolean> {
    const owned = (await this.dataSource.query(`SELECT 1 FROM oauth.oidc_models WHERE kind = 'Grant' AND id = $1 AND payload->>'accountId' = $2`, [
      grantId,
      wallet,
    ])) as unknown[];
    if (owned.length === 0) return false;
    await revokeGrant(this.dataSource, (id) => this.sessionKeys.revokeForGrant(id), grantId);
    return true;
  }

  async revokeKey(wallet: string, address: string): Promise<boolean> {
    return this.sessionKeys.revoke(wallet, address);
  }
}

function summariseKey(key: SessionKeySecretEntity): SessionKeySummary {
  const state: KeyState = key.revokedAt ? 'revoked' : key.expiresAt.getTime() <= Date.now() ? 'expired' : 'active';
  return {
    address: key.address,
    label: key.label,
    guardrails: key.guardrails,
    createdAt: key.createdAt,
    expiresAt: key.expiresAt,
    state,
    grantId: key.grantId,
  };
}
