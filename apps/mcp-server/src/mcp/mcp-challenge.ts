import { SUPPORTED_SCOPES, type ToolDefinition, mcpResource, requiredScopes } from '@paper/contracts';

/** Where MCP clients find the protected-resource metadata (RFC 9728) of `{base}/mcp`. */
export function protectedResourceMetadataUrl(publicBaseUrl: string): string {
  const url = new URL(mcpResource(publicBaseUrl));
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname}`;
}

export interface ChallengeOptions {
  error?: 'invalid_token' | 'insufficient_scope';
  description?: string;
  /** Space-separated scopes the request needs. */
  scope: string;
}

/**
 * A Bearer challenge (RFC 6750) pointing at the protected-resource metadata, so MCP clients discover the
 * authorization server and start OAuth (401), or ask for more scopes (403 insufficient_scope).
 */
export function mcpBearerChallenge(publicBaseUrl: string, options: ChallengeOptions): string {
  const parts: string[] = [];
  if (options.error) parts.push(`error="${options.error}"`);
  if (options.description) parts.push(`error_description="${options.description.replace(/["\\]/g, "'")}"`);
  parts.push(`resource_metadata="${protectedResourceMetadataUrl(publicBaseUrl)}"`, `scope="${options.scope}"`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * The scope of every challenge: what the server's tools need (trade:read, trade:write) and
 * offline_access, the resource's `scopes_supported`. MCP clients request exactly the challenged scope
 * (MCP 2025-11-25 scope selection), so one sign-in covers reading and trading; the owner decides on the
 * consent page whether the connection may trade or only read. A 403 insufficient_scope names the same
 * set (the granted scopes plus the missing one).
 */
export const MCP_CHALLENGE_SCOPE = SUPPORTED_SCOPES.join(' ');

/** The scopes a call of the tool needs: trade:read, plus trade:write for the trading tools. */
export function scopesFor(tool: ToolDefinition): string {
  return requiredScopes(tool).join(' ');
}

/**
 * Whether a call without a token must be answered with the OAuth challenge instead of running: the
 * trading tools (they act on the connected wallet's funds), and the tools whose `wallet` argument
 * defaults to the connected wallet when it is left out (get_account, get_trade_history,
 * get_portfolio_history, get_deposit_info). Every other call runs on the public family; with a
 * `wallet` argument the account tools inspect that wallet without a token.
 */
export function needsConnectedWallet(tool: ToolDefinition, args: unknown): boolean {
  if (tool.family === 'me-only' || tool.wallet === 'connected') return true;
  if (tool.wallet !== 'optional') return false;
  const wallet =
    args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>)['wallet'] : undefined;
  return wallet === undefined || wallet === null;
}
