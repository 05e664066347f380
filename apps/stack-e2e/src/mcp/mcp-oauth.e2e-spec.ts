import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { mcpResource } from '@paper/contracts';
import { startTestStack, type TestStack } from '@paper/dev-stack';
import { decodeJwt } from 'jose';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type Limits, launchChromium } from '../oauth/consent-driver';
import { CallbackServer, eventually } from '../oauth/oauth-test-client';
import { approveInBrowser, type BrowserConsent, TestOAuthProvider } from './mcp-oauth-provider';
import { fund } from './paper-funds';
import {
  callTool,
  connectMcp,
  type McpConnection,
  rawMcpPost,
  restCall,
  resultText,
  toolsCall,
} from './mcp-test-client';

/** Guardrails the owner approves: room for one 25 USDC x 500 trade (the exchange minimum notional is 10,000 USDC). */
const LIMITS: Limits = {
  maxMarginPerTradeUsd: '50',
  maxLeverage: '500',
  maxDailyNotionalUsd: '100000',
  maxOpenPositions: '3',
  markets: ['BTC'],
  confirmations: true,
  expiresInDays: '7',
};
const TRADE = { market: 'BTC', side: 'long', marginUsd: 25, leverage: 500 };

describe('MCP server: OAuth through the SDK client, then trading over MCP', () => {
  let stack: TestStack;
  let browser: Browser;
  const callback = new CallbackServer();
  let consent: BrowserConsent;
  let provider: TestOAuthProvider;
  let mcp: McpConnection;
  const privateKey = generatePrivateKey();
  const wallet = privateKeyToAccount(privateKey).address.toLowerCase();

  beforeAll(async () => {
    stack = await startTestStack({
      apps: ['venue-sim', 'trading-executor', 'oauth-server', 'tools-gateway', 'mcp-server'],
    });
    browser = await launchChromium();
    await callback.start();
    consent = { browser, callback, privateKey };
    provider = new TestOAuthProvider(callback.redirectUri);
    mcp = await connectMcp(stack.baseUrl, { authProvider: provider });
  });

  afterAll(async () => {
    await Promise.allSettled([mcp?.close(), callback.stop(), browser?.close(), stack?.stop()]);
  });

  const accessToken = () => provider.tokens()!.access_token;

  it('starts OAuth on the 401 challenge with every scope the tools need: discovery, registration, PKCE S256, consent, token for /mcp', async () => {
    // Without a token the public part works; the connected-wallet view answers the challenge.
    expect((await mcp.client.listTools()).tools).toHaveLength(19);
    await expect(callTool(mcp.client, 'get_account')).rejects.toBeInstanceOf(UnauthorizedError);

    const url = provider.lastRedirect;
    expect(`${url.origin}${url.pathname}`).toBe(`${stack.baseUrl}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: provider.clientInformation()!.client_id,
      redirect_uri: callback.redirectUri,
      code_challenge_method: 'S256',
      // The challenge of a read tool already names trading: one sign-in is enough for both.
      scope: 'trade:read trade:write offline_access',
      resource: mcpResource(stack.baseUrl),
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // This owner answers the request to trade with read-only access.
    const code = await approveInBrowser(consent, url);
    await mcp.transport.finishAuth(code);
    const claims = decodeJwt(accessToken());
    expect(claims).toMatchObject({ aud: mcpResource(stack.baseUrl), iss: stack.baseUrl, wallet, sub: wallet });
    expect(String(claims['scope']).split(' ')).toEqual(['trade:read']);
    expect(claims['session_key']).toBeUndefined();
    expect(provider.tokens()!.refresh_token).toEqual(expect.any(String));
  });

  it('refreshes through the SDK provider with the rotating refresh token, without a new consent', async () => {
    const before = provider.tokens()!;
    const redirects = provider.redirects.length;
    await expect(auth(provider, { serverUrl: `${stack.baseUrl}/mcp` })).resolves.toBe('AUTHORIZED');
    const after = provider.tokens()!;
    expect(provider.redirects).toHaveLength(redirects);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toEqual(expect.any(String));
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(decodeJwt(after.access_token)).toMatchObject({ aud: mcpResource(stack.baseUrl), wallet });
    const account = await callTool(mcp.client, 'get_account');
    expect(account.isError).toBeFalsy();
    expect(account.structuredContent).toMatchObject({ wallet });
  });

  it('acts as the connected wallet with the token', async () => {
    const account = await callTool(mcp.client, 'get_account');
    expect(account.isError).toBeFalsy();
    expect(account.structuredContent).toMatchObject({ wallet });
    const rest = await restCall(stack.baseUrl, 'get_account', {}, accessToken());
    expect(rest.body.data).toMatchObject({
      wallet,
      freeUsd: (account.structuredContent as { freeUsd: number }).freeUsd,
    });

    const permissions = await callTool(mcp.client, 'get_trading_permissions');
    expect(permissions.structuredContent).toMatchObject({
      connected: true,
      wallet,
      scopes: ['trade:read'],
      canRead: true,
      canTrade: false,
    });
  });

  it('answers a trading tool with 403 insufficient_scope for the read-only token the owner chose', async () => {
    const res = await rawMcpPost(stack.baseUrl, toolsCall(4, 'preview_trade', TRADE), {
      authorization: `Bearer ${accessToken()}`,
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", resource_metadata="${stack.baseUrl}/.well-known/oauth-protected-resource/mcp", scope="trade:read trade:write offline_access"`,
    );
    expect(await res.json()).toMatchObject({
      id: 4,
      error: { data: { code: 'insufficient_scope' }, message: expect.stringMatching(/trade:write/) },
    });
  });

  it('step-up: on that 403 the SDK tries a refresh, is refused it, starts a new authorization with the wider scope, and trades once the owner approves', async () => {
    await fund(stack, wallet);
    const readOnly = provider.tokens()!;
    // The SDK refreshes first; the refresh cannot add trade:write, so it is refused (invalid_grant) and the
    // SDK drops its tokens and sends the owner back to the consent page, asking for the challenged scope.
    const stepUp = await callTool(mcp.client, 'preview_trade', TRADE).catch((error: unknown) => error);
    expect(stepUp).toBeInstanceOf(UnauthorizedError);
    expect(provider.redirects).toHaveLength(2);
    expect(provider.tokens()).toBeUndefined();
    const url = provider.lastRedirect;
    expect(url.searchParams.get('scope')).toBe('trade:read trade:write offline_access');
    expect(url.searchParams.get('client_id')).toBe(provider.clientInformation()!.client_id);

    // The owner approves trading this time; the same client now trades with the new connection.
    await mcp.transport.finishAuth(await approveInBrowser(consent, url, LIMITS));
    const claims = decodeJwt(accessToken());
    expect(String(claims['scope']).split(' ')).toEqual(expect.arrayContaining(['trade:read', 'trade:write']));
    expect(claims['session_key']).toEqual(expect.stringMatching(/^0x[0-9a-f]{40}$/));
    await eventually(
      async () => (await callTool(mcp.client, 'get_trading_permissions')).structuredContent?.['canTrade'] === true,
      'the trading session',
    );
    const preview = await callTool(mcp.client, 'preview_trade', TRADE);
    expect(preview.isError).toBeFalsy();
    expect(preview.structuredContent).toMatchObject({ quoteId: expect.any(String) });
    expect(provider.redirects).toHaveLength(2);

    // The old read-only refresh token is refused the same way while the request holds, with the reason
    // in the error description (RFC 6749 §5.2) for clients that show it.
    const refreshed = await fetch(`${stack.baseUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: readOnly.refresh_token!,
        client_id: provider.clientInformation()!.client_id,
      }),
    });
    const answer = (await refreshed.json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/trade:write/) });
  });

  it('one sign-in: a client challenged on a balance check gets trading approved, then previews, opens and closes over MCP with the same token', async () => {
    await fund(stack, wallet);
    const trader = new TestOAuthProvider(callback.redirectUri, 'MCP E2E Trader');
    const session = await connectMcp(stack.baseUrl, { authProvider: trader });
    try {
      // The agent checks the balance first: the challenge of that read tool starts the only sign-in.
      await expect(callTool(session.client, 'get_account')).rejects.toBeInstanceOf(UnauthorizedError);
      expect(trader.lastRedirect.searchParams.get('scope')).toBe('trade:read trade:write offline_access');
      await session.transport.finishAuth(await approveInBrowser(consent, trader.lastRedirect, LIMITS));
      const token = trader.tokens()!.access_token;
      expect(decodeJwt(token)).toMatchObject({
        aud: mcpResource(stack.baseUrl),
        wallet,
        session_key: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      });
      expect(String(decodeJwt(token)['scope']).split(' ')).toEqual(
        expect.arrayContaining(['trade:read', 'trade:write']),
      );
      const balance = await callTool(session.client, 'get_account');
      expect(balance.isError).toBeFalsy();
      expect(balance.structuredContent).toMatchObject({ wallet });
      await eventually(
        async () =>
          (await callTool(session.client, 'get_trading_permissions')).structuredContent?.['canTrade'] === true,
        'the trading session',
      );
      await tradeRoundTrip(session);
      // No second authorization was ever needed.
      expect(trader.redirects).toHaveLength(1);
      expect(trader.tokens()!.access_token).toBe(token);
    } finally {
      await session.close();
    }
  });
});

/** preview_trade -> open_position (needs the quote) -> close_positions, as a client following the instructions does. */
async function tradeRoundTrip(session: McpConnection): Promise<void> {
  const preview = await callTool(session.client, 'preview_trade', TRADE);
  expect(preview.isError).toBeFalsy();
  const quote = preview.structuredContent as {
    quoteId: string;
    validForSeconds: number;
    confirmationRequired: boolean;
    notionalUsd: number;
  };
  expect(quote).toMatchObject({ validForSeconds: 180, confirmationRequired: true, notionalUsd: 12500 });

  const withoutQuote = await callTool(session.client, 'open_position', TRADE);
  expect(withoutQuote.isError).toBe(true);
  expect(resultText(withoutQuote)).toMatch(/^quote_required: /);

  const opened = await callTool(session.client, 'open_position', { ...TRADE, quoteId: quote.quoteId });
  expect(opened.isError).toBeFalsy();
  const fill = opened.structuredContent as {
    status: string;
    position: { positionId: string; marginUsd: number; leverage: number };
  };
  expect(fill).toMatchObject({ status: 'filled', position: { marginUsd: 25, leverage: 500 } });
  expect(resultText(opened)).toContain(fill.position.positionId);

  const reused = await callTool(session.client, 'open_position', { ...TRADE, quoteId: quote.quoteId });
  expect(resultText(reused)).toMatch(/^quote_used: /);

  const account = await callTool(session.client, 'get_account');
  expect(
    (account.structuredContent as { positions: { positionId: string }[] }).positions.map((p) => p.positionId),
  ).toEqual([fill.position.positionId]);

  const closed = await callTool(session.client, 'close_positions', { positionIds: [fill.position.positionId] });
  expect(closed.isError).toBeFalsy();
  expect(closed.structuredContent).toMatchObject({
    closed: 1,
    pending: 0,
    results: [{ positionId: fill.position.positionId, status: 'closed' }],
  });
  const after = await callTool(session.client, 'get_account');
  expect((after.structuredContent as { positions: unknown[] }).positions).toEqual([]);
}
