import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import { TOOL_CATALOG, findTool } from '@paper/contracts';
import {
  MCP_CHALLENGE_SCOPE,
  mcpBearerChallenge,
  needsConnectedWallet,
  protectedResourceMetadataUrl,
  scopesFor,
} from './mcp-challenge';

const BASE = 'https://perps.example.com';
const WALLET = '0x1111111111111111111111111111111111111111';

describe('MCP OAuth challenge', () => {
  it('points at the protected-resource metadata of {base}/mcp', () => {
    expect(protectedResourceMetadataUrl(BASE)).toBe(`${BASE}/.well-known/oauth-protected-resource/mcp`);
    expect(protectedResourceMetadataUrl(`${BASE}/`)).toBe(`${BASE}/.well-known/oauth-protected-resource/mcp`);
  });

  it('is read by the SDK client: resource metadata, scope and error', () => {
    const read = (header: string) =>
      extractWWWAuthenticateParams(new Response(null, { status: 401, headers: { 'WWW-Authenticate': header } }));
    const start = read(mcpBearerChallenge(BASE, { scope: 'trade:read' }));
    expect(start.resourceMetadataUrl?.href).toBe(`${BASE}/.well-known/oauth-protected-resource/mcp`);
    expect(start.scope).toBe('trade:read');
    expect(start.error).toBeUndefined();
    const more = read(mcpBearerChallenge(BASE, { error: 'insufficient_scope', scope: 'trade:read trade:write' }));
    expect(more).toMatchObject({ error: 'insufficient_scope', scope: 'trade:read trade:write' });
    const invalid = mcpBearerChallenge(BASE, {
      error: 'invalid_token',
      description: 'it has "expired"',
      scope: 'trade:read',
    });
    expect(invalid).toBe(
      `Bearer error="invalid_token", error_description="it has 'expired'", resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp", scope="trade:read"`,
    );
    expect(read(invalid).error).toBe('invalid_token');
  });

  it("challenges with every scope the tools need plus offline_access, the resource's scopes_supported: one sign-in reads and trades", () => {
    expect(MCP_CHALLENGE_SCOPE).toBe('trade:read trade:write offline_access');
  });

  it('names trade:write only for the trading tools', () => {
    expect(scopesFor(findTool('open_position')!)).toBe('trade:read trade:write');
    expect(scopesFor(findTool('get_account')!)).toBe('trade:read');
  });

  it('challenges trading tools and wallet-defaulting tools called without a wallet, nothing else', () => {
    const challenged = TOOL_CATALOG.filter((tool) => needsConnectedWallet(tool, {})).map((t) => t.name);
    expect(challenged).toEqual([
      'get_account',
      'get_trade_history',
      'get_portfolio_history',
      'get_deposit_info',
      'preview_trade',
      'open_position',
      'close_positions',
      'cancel_intent',
    ]);
    const account = findTool('get_account')!;
    expect(needsConnectedWallet(account, { wallet: WALLET })).toBe(false);
    expect(needsConnectedWallet(account, undefined)).toBe(true);
    expect(needsConnectedWallet(account, { wallet: null })).toBe(true);
    expect(needsConnectedWallet(findTool('get_trading_permissions')!, {})).toBe(false);
    expect(needsConnectedWallet(findTool('get_recent_trades')!, {})).toBe(false);
    expect(needsConnectedWallet(findTool('open_position')!, { wallet: WALLET })).toBe(true);
  });
});
