/**
 * The OAuth contract between oauth-server (issuer) and the resource servers (tools-gateway, mcp-server):
 * ES256 JWT access tokens (RFC 9068) verified through the issuer's JWKS.
 */
export const SCOPES = {
  read: 'trade:read',
  write: 'trade:write',
  offline: 'offline_access',
} as const;

export const SUPPORTED_SCOPES = [SCOPES.read, SCOPES.write, SCOPES.offline] as const;

/** Claims the resource servers rely on, besides iss, aud, exp, iat, jti, client_id and scope. */
export interface AccessTokenClaims {
  /** The connected wallet (lower-case 0x address); also the `sub`. */
  wallet: string;
  /** Address of the session key approved for this connection, when one is. */
  session_key?: string;
  scope: string;
  client_id: string;
}

/** The resource (and token audience) MCP clients connect to: exactly `{base_url}/mcp`. */
export function mcpResource(publicBaseUrl: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/mcp`;
}

/** The REST tool API resource: `{base_url}/api/v1`. */
export function toolApiResource(publicBaseUrl: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/api/v1`;
}

/** Audiences both resource servers accept (a token for any other audience is refused). */
export function acceptedAudiences(publicBaseUrl: string): string[] {
  return [mcpResource(publicBaseUrl), toolApiResource(publicBaseUrl)];
}
