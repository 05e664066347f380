import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { TOOL_CATALOG } from '@paper/contracts';
import { startTestStack, type TestStack } from '@paper/dev-stack';
import { eventually } from '../oauth/oauth-test-client';
import { runInspector2Cli } from './inspector-cli';
import { MCP_ACCEPT, connectMcp, restCall } from './mcp-test-client';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The v2 SDK client pinned to MCP 2026-07-28 (server/discover at connect, `_meta` on every request). */
async function connectModern(url: string): Promise<ModernClient> {
  const client = new ModernClient(
    { name: 'stack-e2e-modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(new ModernTransport(new URL(url)));
  return client;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('MCP 2025-11-25 and 2026-07-28 on both /mcp endpoints', () => {
  let stack: TestStack;
  const endpoints = () => [
    { name: 'tool API', url: `${stack.baseUrl}/mcp`, server: 'paper-perps', tool: 'get_markets' },
    { name: 'alerts', url: `${stack.alertsUrl}/mcp`, server: 'paper-wallet-alerts', tool: 'get_service_status' },
  ];

  beforeAll(async () => {
    stack = await startTestStack({
      apps: ['venue-sim', 'trading-executor', 'oauth-server', 'tools-gateway', 'mcp-server', 'alerts-api'],
    });
    await eventually(async () => (await restCall(stack.baseUrl, 'get_markets')).body.ok, 'live prices');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('serves the v2 SDK client pinned to 2026-07-28: discovery, a deterministic tools/list, a tool call', async () => {
    for (const endpoint of endpoints()) {
      const client = await connectModern(endpoint.url);
      try {
        expect([endpoint.name, client.getNegotiatedProtocolVersion()]).toEqual([endpoint.name, MODERN]);
        expect(client.getProtocolEra()).toBe('modern');
        expect(client.getServerVersion()).toMatchObject({ name: endpoint.server });
        const first = (await client.listTools()).tools.map((t) => t.name);
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(first);
        expect(first).toContain(endpoint.tool);
        const result = await client.callTool({ name: endpoint.tool, arguments: {} });
        expect([endpoint.name, result.isError ?? false]).toEqual([endpoint.name, false]);
        expect(result.structuredContent).toBeDefined();
      } finally {
        await client.close();
      }
    }
  });

  it('serves the 1.x SDK client on 2025-11-25 alongside, on both endpoints', async () => {
    for (const endpoint of endpoints()) {
      const mcp = await connectMcp(endpoint.url.replace(/\/mcp$/, ''));
      try {
        expect(mcp.transport.protocolVersion).toBe('2025-11-25');
        expect((await mcp.client.listTools()).tools.map((t) => t.name)).toContain(endpoint.tool);
      } finally {
        await mcp.close();
      }
    }
  });

  it('works with the current MCP Inspector CLI (2.x) in both eras: tools/list and tools/call on both endpoints', async () => {
    for (const endpoint of endpoints()) {
      for (const era of ['modern', 'legacy'] as const) {
        const list = await runInspector2Cli(endpoint.url, era, ['--method', 'tools/list']);
        expect([endpoint.name, era, list.code, list.stderr.slice(0, 500)]).toEqual([
          endpoint.name,
          era,
          0,
          list.stderr.slice(0, 500),
        ]);
        const names = (JSON.parse(list.stdout) as { result: { tools: { name: string }[] } }).result.tools.map(
          (t) => t.name,
        );
        expect(names).toContain(endpoint.tool);
        const call = await runInspector2Cli(endpoint.url, era, [
          '--method',
          'tools/call',
          '--tool-name',
          endpoint.tool,
        ]);
        expect([endpoint.name, era, call.code]).toEqual([endpoint.name, era, 0]);
        expect(JSON.parse(call.stdout)).toMatchObject({ result: { structuredContent: expect.any(Object) } });
      }
    }
  });

  it('answers the 2026-07-28 wire format: discover, resultType, caching hints, serverInfo', async () => {
    for (const endpoint of endpoints()) {
      const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' };
      const discover = await post(
        endpoint.url,
        { jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: META } },
        headers,
      );
      expect(discover.status).toBe(200);
      expect(discover.body).toMatchObject({
        id: 'd',
        result: {
          resultType: 'complete',
          supportedVersions: expect.arrayContaining([MODERN, '2025-11-25']),
          capabilities: { tools: { listChanged: false } },
          ttlMs: expect.any(Number),
          cacheScope: 'public',
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: endpoint.server } },
        },
      });
      const list = await post(
        endpoint.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      );
      expect(list.body).toMatchObject({ id: 2, result: { resultType: 'complete', cacheScope: 'public' } });
    }
    const tools = await post(
      `${stack.baseUrl}/mcp`,
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: META } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
    );
    expect((tools.body['result'] as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(
      TOOL_CATALOG.map((t) => t.name),
    );
  });

  it('serves the server card at /.well-known/mcp/server-card with the tools exactly as tools/list lists them', async () => {
    const res = await fetch(`${stack.baseUrl}/.well-known/mcp/server-card`, {
      headers: { origin: 'https://x.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const card = (await res.json()) as { remotes: { url: string }[]; tools: unknown[] };
    expect(card.remotes[0]!.url).toBe(`${stack.baseUrl}/mcp`);
    const client = await connectModern(card.remotes[0]!.url);
    try {
      expect(card.tools).toEqual((await client.listTools()).tools);
    } finally {
      await client.close();
    }
  });

  it('keeps the request id on refusals and lists the supported versions as data', async () => {
    for (const endpoint of endpoints()) {
      const unsupported = await post(
        endpoint.url,
        {
          jsonrpc: '2.0',
          id: 41,
          method: 'tools/list',
          params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
        },
        { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
      );
      expect(unsupported).toMatchObject({
        status: 400,
        body: {
          id: 41,
          error: {
            code: -32022,
            data: { supported: expect.arrayContaining([MODERN, '2025-11-25']), requested: '2099-01-01' },
          },
        },
      });
      const mismatch = await post(
        endpoint.url,
        { jsonrpc: '2.0', id: 42, method: 'tools/list', params: { _meta: META } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' },
      );
      expect(mismatch).toMatchObject({ status: 400, body: { id: 42, error: { code: -32020 } } });
      const removed = await post(
        endpoint.url,
        { jsonrpc: '2.0', id: 43, method: 'ping', params: { _meta: META } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'ping' },
      );
      expect(removed).toMatchObject({ status: 404, body: { id: 43, error: { code: -32601 } } });
      const notRpc = await post(endpoint.url, { jsonrpc: '2.0', id: 44, method: 7 });
      expect(notRpc).toMatchObject({ status: 400, body: { id: 44, error: { code: -32600 } } });
    }
  });

  it('alerts /mcp: a NUL keeps the id, invalid arguments are a tool error, tools.listChanged is false', async () => {
    const url = `${stack.alertsUrl}/mcp`;
    const nul = await post(url, '{"jsonrpc":"2.0","id":51,"method":"tools/call","params":{"name":"x\\u0000"}}');
    expect(nul).toMatchObject({ status: 400, body: { id: 51, error: { code: -32602 } } });
    const mcp = await connectMcp(stack.alertsUrl);
    try {
      expect(mcp.client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
      const bad = await mcp.client.callTool({ name: 'exchange_get_price_chart', arguments: { market: 42 } });
      expect(bad.isError).toBe(true);
      expect((bad.content as { text: string }[])[0]!.text).toMatch(/^validation_failed: /);
    } finally {
      await mcp.close();
    }
  });
});
