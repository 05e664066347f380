import { acceptedAudiences, mcpResource, SCOPES } from '@paper/contracts';
import { type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { renderErrorPage } from '../pages/page-layout';
import type { RevokeSessionKeys } from './grant-revocation';
import { PostgresOidcAdapter } from './postgres-oidc.adapter';
import { clientIdMetadataDocuments } from './client-id-metadata';
import { checkRegistration } from './registration-rules';
import { refuseRefreshAwaitingStepUp } from './scope-step-up';
import type { ProviderKeys } from './provider-keys';
import { TOKEN_TTL } from './token-lifetimes';

export const TRADE_SCOPES = `${SCOPES.read} ${SCOPES.write}`;

export const OAUTH_ROUTES = {
  authorization: '/authorize',
  token: '/token',
  registration: '/register',
  revocation: '/revoke',
  jwks: '/jwks',
} as const;

/** Whether a client's connection gets a (rotating) refresh token: whenever it registered the refresh_token grant. */
export function issuesRefreshToken(client: { grantTypeAllowed(grant: string): boolean }): boolean {
  return client.grantTypeAllowed('refresh_token');
}

/** The provider route a request path reaches: oidc-provider's router also matches a path with one trailing slash. */
export function providerRoute(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The claims an access token carries besides the standard ones: the wallet, its connection (`grant_id`, so
 * the resource servers refuse the token once the connection is revoked) and the connection's session key.
 */
export async function accessTokenClaims(
  token: { kind: string; accountId?: string; grantId?: string },
  sessionKeyForGrant: (grantId: string) => Promise<string | undefined>,
): Promise<Record<string, string> | undefined> {
  if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
  if (!token.grantId) return { wallet: token.accountId };
  const sessionKey = await sessionKeyForGrant(token.grantId);
  return {
    wallet: token.accountId,
    grant_id: token.grantId,
    ...(sessionKey ? { session_key: sessionKey } : {}),
  };
}

export interface ProviderDependencies {
  config: OauthServerConfig;
  dataSource: DataSource;
  keys: ProviderKeys;
  /** The session key approved for a grant (lower-case address), if any. */
  sessionKeyForGrant(grantId: string): Promise<string | undefined>;
  /** Revokes the session keys of a grant; awaited whenever a grant is removed. */
  revokeSessionKeys: RevokeSessionKeys;
}

/**
 * The authorization server's policy: authorization code + PKCE S256 only, client ID metadata documents
 * (client-id-metadata.ts) and open registration of public clients, resource indicators defaulting to the MCP resource,
 * ES256 JWT access tokens carrying the wallet and its session key, rotating refresh tokens (reuse revokes the grant)
 * for every client that registered the refresh_token grant, PostgreSQL storage.
 */
export function providerConfiguration(deps: ProviderDependencies): Configuration {
  const { config, dataSource, keys } = deps;
  const audiences = new Set(acceptedAudiences(config.PUBLIC_BASE_URL));
  const secureCookies = config.PUBLIC_BASE_URL.startsWith('https:');
  const cimd = clientIdMetadataDocuments(config.OAUTH_CIMD_PRIVATE_HOSTS);
  return {
    fetch: cimd.fetch,
    adapter: (name: string) => new PostgresOidcAdapter(dataSource, name, deps.revokeSessionKeys),
    jwks: keys.jwks as Configuration['jwks'],
    cookies: {
      keys: keys.cookieKeys,
      long: { httpOnly: true, sameSite: 'lax', secure: secureCookies },
      short: { httpOnly: true, sameSite: 'lax', secure: secureCookies },
    },
    routes: OAUTH_ROUTES,
    scopes: ['openid', SCOPES.offline, SCOPES.read, SCOPES.write],
    claims: { openid: ['sub'] },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    // Called once per registration (for `software_id`, present or not) with the whole metadata:
    // - a client's registered `scope` would cap what it can ever ask for; consent, not registration,
    //   decides the scopes, so the registered value is dropped;
    // - text PostgreSQL cannot store and unsafe redirect URIs are refused (registration-rules.ts).
    extraClientMetadata: {
      properties: ['software_id'],
      validator: (_ctx, key, _value, metadata) => {
        if (key !== 'software_id') return;
        delete (metadata as { scope?: string }).scope;
        checkRegistration(metadata as Record<string, unknown>);
      },
    },
    responseTypes: ['code'],
    enabledJWA: {
      idTokenSigningAlgValues: ['ES256'],
      userinfoSigningAlgValues: ['ES256'],
      introspectionSigningAlgValues: ['ES256'],
      authorizationSigningAlgValues: ['ES256'],
    },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      revocation: { enabled: true },
      // Dynamic registration stays for clients that do not present a client ID metadata document.
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      clientIdMetadataDocument: cimd.feature,
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpResource(config.PUBLIC_BASE_URL),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (!audiences.has(resourceIndicator))
            throw new errors.InvalidTarget(`unknown resource ${resourceIndicator}`);
          return {
            scope: TRADE_SCOPES,
            audience: resourceIndicator,
            accessTokenTTL: config.OAUTH_ACCESS_TTL_SECONDS,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    ttl: {
      AccessToken: config.OAUTH_ACCESS_TTL_SECONDS,
      AuthorizationCode: TOKEN_TTL.authorizationCode,
      RefreshToken: TOKEN_TTL.refreshToken,
      Grant: TOKEN_TTL.grant,
      IdToken: TOKEN_TTL.idToken,
      Interaction: TOKEN_TTL.interaction,
      Session: TOKEN_TTL.session,
    },
    // Refresh tokens always rotate; a refresh right after a resource server refused the client for a scope
    // the connection lacks starts a new authorization instead (scope-step-up.ts).
    rotateRefreshToken: async (ctx) => {
      await refuseRefreshAwaitingStepUp(ctx, dataSource);
      return true;
    },
    // MCP clients ask for the scope of the resource's challenge (trade:read), not offline_access, yet register
    // the refresh_token grant: every such client gets a rotating refresh token, so it stays connected without
    // a new consent (and a new session key) every 15 minutes. offline_access is accepted as well.
    issueRefreshToken: (_ctx, client) => issuesRefreshToken(client),
    // Tokens belong to the connection (grant), never to the browser session of the consent page.
    expiresWithSession: () => false,
    // Every authorization request shows the consent page (a new session key per connection).
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, wallet: sub }),
    }),
    extraTokenClaims: (_ctx, token) => accessTokenClaims(token, deps.sessionKeyForGrant),
    // Public clients (MCP clients, browser apps) call the token endpoint cross-origin.
    clientBasedCORS: () => true,
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = renderErrorPage(
        'This connection request cannot continue',
        describeAuthorizationError(String(out['error'] ?? 'server_error'), out['error_description']),
        'Go back to the app you were connecting and start again. If this keeps happening, the app may be ' +
          'misconfigured.',
        String(out['error'] ?? ''),
      );
    },
  };
}

function describeAuthorizationError(code: string, description: unknown): string {
  switch (code) {
    case 'invalid_redirect_uri':
      return (
        'The app asked to send you back to an address it never registered, so we stopped here to protect your ' +
        'wallet.'
      );
    case 'invalid_client':
      return 'The app that sent you here is not registered with this service.';
    case 'invalid_request':
      return `The app sent an incomplete or malformed request (${String(description ?? 'invalid request')}).`;
    default:
      return typeof description === 'string' && description
        ? description
        : 'Something went wrong while processing this request.';
  }
}
