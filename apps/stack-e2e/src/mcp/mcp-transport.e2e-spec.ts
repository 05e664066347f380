import { LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_CATALOG, mcpResource, toolApiResource } from '@paper/contracts';
import { startTestStack, type TestStack } from '@paper/dev-stack';
import { SignJWT, generateKeyPair } from 'jose';
import { eventually } from '../oauth/oauth-test-client';
import { runInspectorCli } from './inspector-cli';
import {
  callTool,
  connectMcp,
  type McpConnection,
  rawMcpPost,
  restCall,
  resultText,
  toolsCall,
} from './mcp-test-client';
import { signStackToken } from './stack-token';
import { checkToolCallParams, checkTransportSecurity } from './transport-security-checks';

const WALLET = '0x00000000000000000000000000000000000000a1';
const INTENT = `0x${'ab'.repeat(32)}`;

describe('MCP server: Streamable HTTP transport of the tool catalog', () => {
  let stack: TestStack;
  let mcp: McpConnection;
  let prm: string;

  beforeAll(async () => {
    stack = await startTestStack({
      apps: ['venue-sim', 'trading-executor', 'oauth-server', 'tools-gateway', 'mcp-server'],
      // Calls come from many source addresses (the per-address limit at its default). A wallet's limit
      // refills slowly here, so a burst past it is refused however slow the machine is.
      env: {
        RATE_LIMIT_ME_PER_SECOND: '2',
        RATE_LIMIT_ME_BURST: '40',
      },
    });
    prm = `${stack.baseUrl}/.well-known/oauth-protected-resource/mcp`;
    mcp = await connectMcp(stack.baseUrl);
    // Prices reach the exchange through trading-executor's ingest: wait until the market tools can answer.
    await eventually(async () => (await restCall(stack.baseUrl, 'get_markets')).body.ok, 'live prices');
  });

  afterAll(async () => {
    await mcp?.close();
    await stack?.stop();
  });

  it('initializes statelessly on the latest protocol revision with instructions for the model', async () => {
    expect(mcp.transport.protocolVersion).toBe('2025-11-25');
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    expect(mcp.client.getServerVersion()).toMatchObject({ name: 'paper-perps', version: '0.1.0' });
    expect(mcp.client.getServerCapabilities()?.tools).toBeDefined();
    const instructions = mcp.client.getInstructions() ?? '';
    expect(instructions).toMatch(/preview_trade/);
    expect(instructions).toMatch(/3 minutes/);
    expect(instructions).toMatch(/most it can lose/);
    expect(instructions).toMatch(/explicit confirmation/);
    expect(instructions).toMatch(/get_intent_status/);
    const res = await rawMcpPost(stack.baseUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(((await res.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe('2025-11-25');
  });

  it('lists all 19 tools with input and output schemas and annotations', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_CATALOG.map((t) => t.name));
    for (const tool of tools) {
      const source = TOOL_CATALOG.find((t) => t.name === tool.name)!;
      expect(tool.description).toBe(source.description);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ title: source.title, readOnlyHint: source.annotations.readOnlyHint });
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('get_markets')!.annotations?.readOnlyHint).toBe(true);
    for (const name of ['open_position', 'close_positions']) {
      expect(byName.get(name)!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(byName.get(name)!.description).toMatch(/explicit confirmation/);
    }
    expect(byName.get('open_position')!.inputSchema.properties).toHaveProperty('quoteId');
    expect(byName.get('preview_trade')!.description).toMatch(/3 minutes/);
    expect(byName.get('get_price_chart')!.inputSchema.properties!['count']).toMatchObject({
      minimum: 10,
      maximum: 500,
      default: 96,
    });
  });

  it.each([
    ['get_markets', {}],
    ['get_price_chart', { market: 'BTC', interval: '1h', count: 24 }],
    ['get_protocol_stats', { days: 7 }],
    ['get_liquidation_map', { market: 'ETH' }],
    ['get_leaderboard', { window: '7d', sortKey: 'totalVolume', sortDir: 'desc' }],
    ['get_top_trades', { window: 'all' }],
    ['get_recent_trades', { market: 'BTC' }],
    ['get_account', { wallet: WALLET }],
    ['get_trade_history', { wallet: WALLET, pages: 2 }],
    ['get_portfolio_history', { wallet: WALLET, range: '1w' }],
    ['calculate_position', { market: 'BTC', side: 'short', marginUsd: 25, leverage: 500, exitPrice: 90000 }],
    ['get_deposit_info', { wallet: WALLET }],
  ])('%s without a token returns the REST data as structuredContent plus the summary as text', async (name, args) => {
    const rest = await restCall(stack.baseUrl, name, args);
    expect(rest.body.ok).toBe(true);
    // The SDK client checks structuredContent against the tool's outputSchema.
    const result = await callTool(mcp.client, name, args);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(rest.body.data);
    const text = resultText(result);
    expect(text.startsWith(`${rest.body.summary}\n\n`)).toBe(true);
    expect(JSON.parse(text.slice(rest.body.summary!.length + 2))).toEqual(rest.body.data);
  });

  it('get_trading_permissions without a token reports that no wallet is connected', async () => {
    const result = await callTool(mcp.client, 'get_trading_permissions');
    expect(result.structuredContent).toMatchObject({ connected: false, wallet: null, canTrade: false });
  });

  it.each([
    ['get_price_chart', { market: 'BTC', count: 5000 }],
    ['get_leaderboard', { q: 'x'.repeat(65) }],
    ['calculate_position', { market: 'DOGE', side: 'long', marginUsd: -1, leverage: 1.5 }],
    ['get_markets', { verbose: true }],
    ['get_intent_status', { intentId: INTENT }],
    ['get_account', { wallet: 'not-an-address' }],
  ])('%s with bad arguments fails with the same code and message as REST', async (name, args) => {
    const rest = await restCall(stack.baseUrl, name, args);
    expect(rest.status).toBeGreaterThanOrEqual(400);
    const result = await callTool(mcp.client, name, args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(resultText(result)).toBe(`${rest.body.error!.code}: ${rest.body.error!.message}`);
  });

  it('answers an unknown tool with the JSON-RPC invalid-params error', async () => {
    const error = await callTool(mcp.client, 'get_weather').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message).toMatch(/Unknown tool: get_weather/);
  });

  it('has no stream and no session: GET and DELETE answer 405 with a JSON-RPC error', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${stack.baseUrl}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
      expect(await res.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringMatching(/Method not allowed/) },
      });
    }
  });

  it('requires the Accept header of Streamable HTTP and answers bad JSON with a parse error', async () => {
    const noAccept = await fetch(`${stack.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(noAccept.status).toBe(406);
    const broken = await rawMcpPost(stack.baseUrl, '{"jsonrpc": "2.0", "id": ');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('refuses a foreign Host or Origin with 403 (DNS-rebinding protection) and serves server-side clients and admitted origins', async () => {
    await checkTransportSecurity(stack.baseUrl);
  });

  it('answers tools/call without usable params with -32602 Invalid params', async () => {
    await checkToolCallParams(stack.baseUrl);
  });

  it('challenges a call that needs the connected wallet with 401 pointing at the protected-resource metadata', async () => {
    // A browser-based client on loopback (the Inspector's origin) reads the challenge cross-origin.
    const account = await rawMcpPost(stack.baseUrl, toolsCall(7, 'get_account'), { origin: 'http://localhost:6274' });
    expect(account.status).toBe(401);
    expect(account.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${prm}", scope="trade:read trade:write offline_access"`,
    );
    expect(account.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(account.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/);
    expect(await account.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { data: { code: 'unauthorized' } } });
    const trade = await rawMcpPost(
      stack.baseUrl,
      toolsCall(8, 'open_position', { market: 'BTC', side: 'long', marginUsd: 20, leverage: 500 }),
    );
    expect(trade.status).toBe(401);
    expect(trade.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${prm}", scope="trade:read trade:write offline_access"`,
    );
    // Without a token, initialize and tools/list still work, and so does an account tool given a wallet.
    expect((await rawMcpPost(stack.baseUrl, { jsonrpc: '2.0', id: 9, method: 'tools/list' })).status).toBe(200);
    expect((await rawMcpPost(stack.baseUrl, toolsCall(10, 'get_account', { wallet: WALLET }))).status).toBe(200);
  });

  it('serves the protected-resource metadata naming the exact resource, the authorization server and the scopes', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await fetch(`${stack.baseUrl}${path}`, { headers: { origin: 'https://claude.ai' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toMatchObject({
        resource: mcpResource(stack.baseUrl),
        authorization_servers: [stack.baseUrl],
        scopes_supported: ['trade:read', 'trade:write', 'offline_access'],
        bearer_methods_supported: ['header'],
      });
    }
    const as = await fetch(`${stack.baseUrl}/.well-known/oauth-authorization-server`);
    expect(((await as.json()) as { issuer: string }).issuer).toBe(stack.baseUrl);
    const preflight = await fetch(`${stack.baseUrl}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(
      /Authorization.*Content-Type.*Mcp-Protocol-Version/,
    );
  });

  it('refuses an invalid or foreign token with 401 invalid_token, whatever the method', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ wallet: WALLET, scope: 'trade:read trade:write' })
      .setProtectedHeader({ alg: 'ES256', kid: 'forged', typ: 'at+jwt' })
      .setIssuer(stack.baseUrl)
      .setAudience(mcpResource(stack.baseUrl))
      .setSubject(WALLET)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    for (const token of ['not-a-jwt', forged]) {
      const res = await rawMcpPost(
        stack.baseUrl,
        { jsonrpc: '2.0', id: 3, method: 'tools/list' },
        { authorization: `Bearer ${token}` },
      );
      expect(res.status).toBe(401);
      const header = res.headers.get('www-authenticate') ?? '';
      expect(header).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", /);
      expect(header).toContain(`resource_metadata="${prm}"`);
      expect(await res.json()).toMatchObject({ id: 3, error: { data: { code: 'invalid_token' } } });
    }
  });

  it('takes tokens for {base}/mcp on both transports, for {base}/api/v1 only on REST, and refuses other audiences and non-access tokens on both', async () => {
    const wallet = `0x${'b2'.repeat(20)}`;
    const sign = (audience: string, typ?: null) => signStackToken(stack, { wallet, audience, typ });
    const onMcp = (token: string) =>
      rawMcpPost(stack.baseUrl, toolsCall(5, 'get_trading_permissions'), { authorization: `Bearer ${token}` });
    const onRest = (token: string) =>
      fetch(`${stack.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });

    const forMcp = await sign(mcpResource(stack.baseUrl));
    const mcpAnswer = await onMcp(forMcp);
    expect(mcpAnswer.status).toBe(200);
    expect(await mcpAnswer.json()).toMatchObject({ id: 5, result: { structuredContent: { connected: true, wallet } } });
    expect((await onRest(forMcp)).status).toBe(200);

    const forRest = await sign(toolApiResource(stack.baseUrl));
    expect((await onRest(forRest)).status).toBe(200);
    const refused = await onMcp(forRest);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token", error_description="[^"]*aud/);

    for (const token of [
      await sign('https://elsewhere.example/mcp'),
      await sign(`${stack.baseUrl}/api/v2`),
      await sign(mcpResource(stack.baseUrl), null),
    ]) {
      expect((await onMcp(token)).status).toBe(401);
      const rest = await onRest(token);
      expect(rest.status).toBe(401);
      expect(((await rest.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
    }
  });

  it("counts every POST /mcp against the caller's rate limit, initialize and tools/list included: 429 with Retry-After", async () => {
    // A token of its own: bursts of 40 per wallet and client, refilled at 2 a second in this stack.
    const token = await signStackToken(stack, {
      wallet: `0x${'c3'.repeat(20)}`,
      audience: mcpResource(stack.baseUrl),
      clientId: 'rate-limit',
    });
    const initialize = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'burst', version: '1' } },
    });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, id) =>
        rawMcpPost(stack.baseUrl, id % 2 ? { jsonrpc: '2.0', id, method: 'tools/list' } : initialize(id), {
          authorization: `Bearer ${token}`,
          origin: stack.baseUrl,
        }),
      ),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(40);
    expect(limited.length).toBeGreaterThan(0);
    const bodies = (await Promise.all(limited.map((a) => a.json()))) as {
      id: number;
      error: { code: number; message: string; data: { code: string } };
    }[];
    expect(new Set(bodies.map((b) => (b.id % 2 ? 'tools/list' : 'initialize')))).toEqual(
      new Set(['tools/list', 'initialize']),
    );
    expect(bodies[0]).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/Too many requests/), data: { code: 'rate_limited' } },
    });
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    // Other callers are not affected.
    expect((await rawMcpPost(stack.baseUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);
  });

  it('counts a JSON-RPC batch as one request per message', async () => {
    const token = await signStackToken(stack, {
      wallet: `0x${'c4'.repeat(20)}`,
      audience: mcpResource(stack.baseUrl),
      clientId: 'rate-limit-batch',
    });
    const pings = (n: number) => Array.from({ length: n }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' }));
    // Bursts of 40 per wallet and client: a batch of 45 is over the limit, though it is one POST.
    const batch = await rawMcpPost(stack.baseUrl, pings(45), { authorization: `Bearer ${token}` });
    expect(batch.status).toBe(429);
    expect(await batch.json()).toMatchObject({ jsonrpc: '2.0', id: 0, error: { data: { code: 'rate_limited' } } });
  });

  it('works with the MCP Inspector CLI: tools/list and tools/call', async () => {
    const url = `${stack.baseUrl}/mcp`;
    const listed = await runInspectorCli(url, ['--method', 'tools/list']);
    expect(listed.stderr).not.toMatch(/Failed|Error:/);
    expect(listed.code).toBe(0);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string; annotations?: Record<string, unknown> }[] };
    expect(tools.map((t) => t.name)).toEqual(TOOL_CATALOG.map((t) => t.name));
    expect(tools.find((t) => t.name === 'open_position')!.annotations).toMatchObject({ destructiveHint: true });

    const markets = await runInspectorCli(url, ['--method', 'tools/call', '--tool-name', 'get_markets']);
    expect(markets.code).toBe(0);
    const result = JSON.parse(markets.stdout) as {
      structuredContent: { markets: { market: string; markPrice: number }[] };
      isError?: boolean;
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.markets.map((m) => m.market)).toEqual(['BTC', 'ETH']);
    expect(result.structuredContent.markets[0]!.markPrice).toBeGreaterThan(0);

    const calc = await runInspectorCli(url, [
      '--method',
      'tools/call',
      '--tool-name',
      'calculate_position',
      '--tool-arg',
      'market=ETH',
      '--tool-arg',
      'side=long',
      '--tool-arg',
      'marginUsd=20',
      '--tool-arg',
      'leverage=500',
      '--tool-arg',
      'entryPrice=3500',
    ]);
    expect(calc.code).toBe(0);
    expect(JSON.parse(calc.stdout)).toMatchObject({
      structuredContent: { market: 'ETH', notionalUsd: 10000, entryPrice: 3500, entrySource: 'given' },
    });
  });
});
