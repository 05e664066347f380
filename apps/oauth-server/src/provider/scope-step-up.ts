import { scopeStepUpSince } from '@paper/oauth-data';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { DataSource } from 'typeorm';

/** What a refresh of a grant needs to know about it: its scopes on the token's resource, and OpenID ones. */
interface GrantScopes {
  getOIDCScope(): string;
  getResourceScope(resource: string): string;
}

/**
 * Step-up authorization. A resource server that refused this client a call for lacking a scope recorded
 * the client's request for it (libs/tools/runtime scope-step-ups.ts). While the request holds and came
 * after the refresh token was issued, refreshing a connection without those scopes would only hand back
 * a token the resource server refuses again, and refresh cannot widen scope: the refresh is answered
 * `invalid_grant`, naming the scopes, so the client starts a new authorization (the MCP SDK does so at
 * once) and the owner decides on the consent page. The connection itself stays as it is.
 */
export async function refuseRefreshAwaitingStepUp(ctx: KoaContextWithOIDC, db: DataSource): Promise<void> {
  const token = ctx.oidc.entities.RefreshToken;
  const grant = ctx.oidc.entities.Grant as unknown as GrantScopes | undefined;
  if (!token?.accountId || !token.clientId || !grant) return;
  const issuedAt = new Date((token.iat ?? 0) * 1000);
  const wanted = await scopeStepUpSince(db, token.clientId, token.accountId, issuedAt);
  if (wanted === undefined) return;
  const resource = typeof token.resource === 'string' ? token.resource : undefined;
  const granted = new Set(
    [grant.getOIDCScope(), resource ? grant.getResourceScope(resource) : ''].join(' ').split(' ').filter(Boolean),
  );
  const missing = wanted.split(' ').filter((scope) => scope && !granted.has(scope));
  if (missing.length === 0) return;
  const refusal = new errors.InvalidGrant();
  refusal.error_description = `This connection does not include ${missing.join(' ')}, which the app was just refused for, and a refresh cannot add scopes: start a new authorization request asking for ${wanted}, so the wallet owner can approve it.`;
  throw refusal;
}
