import { Injectable } from '@nestjs/common';
import {
  grantsOfAccount,
  isGrantOfAccount,
  registeredClients,
  SessionKeySecretEntity,
  type StoredGuardrails,
} from '@paper/oauth-data';
import { DataSource } from 'typeorm';
import { redirectHostLabel } from '../pages/redirect-host';
import { revokeGrant } from '../provider/grant-revocation';
import { type RevocationOutcome, SessionKeyRevocations } from '../session-keys/session-key-revocations.service';

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

/** A wallet's connections (OAuth grants) and trading keys, and their revocation. */
@Injectable()
export class ConnectionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly revocations: SessionKeyRevocations,
  ) {}

  async list(wallet: string): Promise<{ connections: ConnectionSummary[]; keys: SessionKeySummary[] }> {
    const grants = await grantsOfAccount(this.dataSource, wallet);
    const clientIds = [...new Set(grants.map((g) => g.clientId).filter(Boolean))];
    const clients = await registeredClients(this.dataSource, clientIds);
    const clientById = new Map(clients.map((c) => [c.id, c.payload]));
    const keys = (
      await this.dataSource
        .getRepository(SessionKeySecretEntity)
        .find({ where: { wallet }, order: { createdAt: 'DESC' } })
    ).map(summariseKey);

    const connections = grants.map((grant): ConnectionSummary => {
      const client = clientById.get(grant.clientId);
      return {
        grantId: grant.grantId,
        clientId: grant.clientId,
        clientName: client?.client_name?.trim() || 'An unnamed app',
        redirectHosts: [...new Set((client?.redirect_uris ?? []).map(redirectHostLabel))],
        scopes: grant.scopes,
        connectedAt: grant.connectedAt,
        expiresAt: grant.expiresAt,
        sessionKey: keys.find((k) => k.grantId === grant.grantId && k.state === 'active') ?? null,
      };
    });
    return { connections, keys };
  }

  /**
   * Ends a connection: its trading key is revoked (recorded, the exchange woken), its grant, codes and refresh
   * tokens go, then the answer waits for the exchange to confirm the key revoked ('pending' past the wait).
   * Asked again while that completes, it waits again.
   */
  async revokeConnection(wallet: string, grantId: string): Promise<RevocationOutcome> {
    if (!(await isGrantOfAccount(this.dataSource, grantId, wallet)))
      return this.revocations.confirm({ wallet, grantId });
    await revokeGrant(this.dataSource, (id) => this.revocations.revokeForGrant(id), grantId);
    const outcome = await this.revocations.confirm({ wallet, grantId });
    return outcome === 'not-found' ? 'revoked' : outcome;
  }

  /** Revokes one trading key of the wallet and waits for the exchange to confirm ('pending' past the wait). */
  revokeKey(wallet: string, address: string): Promise<RevocationOutcome> {
    return this.revocations.revokeKeyAndConfirm(wallet, address);
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
