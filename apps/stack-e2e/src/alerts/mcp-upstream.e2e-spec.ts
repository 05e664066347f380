import SwaggerParser from '@apidevtools/swagger-parser';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestStack, type TestStack } from '@paper/dev-stack';
import type { OpenAPIV3_1 } from 'openapi-types';
import { checkToolCallParams, checkTransportSecurity } from '../mcp/transport-security-checks';
import {
  type Call,
  client,
  eventually,
  newAccount,
  type Receiver,
  sql,
  startReceiver,
  WALLET,
} from './alerts-test-kit';

const MARKETS = {
  ok: true,
  summary: 'Two markets.',
  data: { markets: [{ market: 'BTC', markPrice: 97000, maxLeverage: 1000 }] },
};

describe('alerts-api exchange proxy, MCP and OpenAPI', () => {
  let stack: TestStack;
  let call: Call;
  let exchange: Receiver;
  let hook: Receiver;
  /** The endless answer of get_liquidation_map: bytes written and whether the proxy hung up. */
  const endless = { written: 0, closed: false };

  beforeAll(async () => {
    exchange = await startReceiver();
    exchange.respond((req, res) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/api/v1/tools/get_markets')
        return void res
          .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=5' })
          .end(JSON.stringify(MARKETS));
      if (url.pathname === '/api/v1/tools/get_account') {
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: true, summary: 'Account.', data: { wallet: url.searchParams.get('wallet') } }));
      }
      if (url.pathname === '/api/v1/tools/get_price_chart') {
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: false, error: { code: 'invalid_arguments', message: 'market is required' } }));
      }
      if (url.pathname === '/api/v1/tools')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"tools":[]}');
      if (url.pathname === '/openapi.json')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"openapi":"3.1.0"}');
      if (url.pathname === '/api/v1/tools/get_top_trades') return; // never answers: timeout
      if (url.pathname === '/api/v1/tools/get_leaderboard')
        return void res.writeHead(302, { location: 'http://127.0.0.1:1/' }).end();
      if (url.pathname === '/api/v1/tools/get_liquidation_map') {
        // Chunked, no content-length, and it never ends on its own (stops at 256 MB).
        endless.written = 0;
        endless.closed = false;
        res.on('close', () => (endless.closed = true));
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = (): void => {
          while (!res.destroyed && endless.written < 256 * 1024 * 1024) {
            endless.written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        return pump();
      }
      res.writeHead(500).end('boom');
    });
    hook = await startReceiver();
    stack = await startTestStack({
      apps: ['alerts-api'],
      env: { EXCHANGE_API_URL: exchange.url, UPSTREAM_TIMEOUT_MS: '500', ALERTS_ALLOW_HOSTS: hook.hostPort },
    });
    call = client(stack.alertsUrl);
  });

  afterAll(async () => {
    await stack?.stop();
    await exchange?.close();
    await hook?.close();
  });

  describe('GET /api/upstream/*', () => {
    it('proxies allow-listed public tools with their query, forwarding no credentials', async () => {
      exchange.received.length = 0;
      const res = await call('GET', `/api/upstream/tools/get_account?wallet=${WALLET}`, {
        token: 'secret-token',
        headers: { cookie: 'session=abc' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, summary: 'Account.', data: { wallet: WALLET } });
      const [req] = exchange.received;
      expect(req!.url).toBe(`/api/v1/tools/get_account?wallet=${WALLET}`);
      expect(req!.headers['authorization']).toBeUndefined();
      expect(req!.headers['cookie']).toBeUndefined();
      expect((await call('GET', '/api/upstream/tools')).body).toEqual({ tools: [] });
      expect((await call('GET', '/api/upstream/openapi.json')).body).toEqual({ openapi: '3.1.0' });
      const markets = await call('GET', '/api/upstream/tools/get_markets');
      expect(markets.body).toEqual(MARKETS);
      expect(markets.headers.get('cache-control')).toBe('max-age=5');
    });

    it('passes client errors of the exchange through with their status', async () => {
      const res = await call('GET', '/api/upstream/tools/get_price_chart');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    });

    it.each([
      ['get_protocol_stats', 'a 5xx'],
      ['get_top_trades', 'a timeout'],
      ['get_leaderboard', 'a redirect'],
    ])('maps %s (%s) to 502 upstream_unavailable', async (tool) => {
      const res = await call('GET', `/api/upstream/tools/${tool}`);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'upstream_unavailable' });
    });

    it('aborts an answer that grows past 2 MB while it streams (502), without waiting for its end', async () => {
      const res = await call('GET', '/api/upstream/tools/get_liquidation_map?market=BTC');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({
        code: 'upstream_unavailable',
        message: expect.stringContaining('larger than 2097152 bytes'),
      });
      await eventually(async () => endless.closed, 5000, 'the proxy to hang up on the endless answer');
      expect(endless.written).toBeLessThan(64 * 1024 * 1024);
    });

    it.each([
      '/api/upstream/tools/preview_trade',
      '/api/upstream/tools/open_position',
      '/api/upstream/me',
      '/api/upstream/api/v1/me',
      '/api/upstream/tools/get_markets/extra',
      '/api/upstream/',
    ])('refuses %s outside the allow-list with 404', async (path) => {
      exchange.received.length = 0;
      const res = await call('GET', path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
      expect(exchange.received).toHaveLength(0);
    });

    it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers %s with 405 (read-only)', async (method) => {
      const res = await call(method, '/api/upstream/tools/get_markets', { body: {} });
      expect(res.status).toBe(405);
      expect(res.body).toMatchObject({ code: 'method_not_allowed' });
    });
  });

  describe('POST /mcp', () => {
    async function connect(token?: string): Promise<Client> {
      const mcp = new Client({ name: 'e2e', version: '1.0.0' });
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${stack.alertsUrl}/mcp`), { requestInit: { headers } }),
      );
      return mcp;
    }

    it('works without a token: status and read-only exchange tools; account tools ask for a token', async () => {
      const mcp = await connect();
      const { tools } = await mcp.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'get_service_status',
          'exchange_get_markets',
          'exchange_get_account',
          'list_watches',
          'add_watch',
          'list_alerts',
        ]),
      );
      expect(tools.find((t) => t.name === 'exchange_get_markets')!.annotations).toMatchObject({ readOnlyHint: true });
      expect(tools.find((t) => t.name === 'remove_watch')!.annotations).toMatchObject({ destructiveHint: true });
      const status = await mcp.callTool({ name: 'get_service_status', arguments: {} });
      expect(status.structuredContent).toMatchObject({ ready: true, channels: { webhook: true } });
      const markets = await mcp.callTool({ name: 'exchange_get_markets', arguments: {} });
      expect(markets.isError).toBeFalsy();
      expect(markets.structuredContent).toEqual(MARKETS);
      const account = await mcp.callTool({ name: 'exchange_get_account', arguments: { wallet: WALLET } });
      expect(account.structuredContent).toMatchObject({ data: { wallet: WALLET } });
      const refused = await mcp.callTool({ name: 'exchange_get_price_chart', arguments: { market: 'BTC' } });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
      const down = await mcp.callTool({ name: 'exchange_get_protocol_stats', arguments: {} });
      expect(down.isError).toBe(true);
      expect(JSON.stringify(down.content)).toContain('upstream_unavailable');
      const watches = await mcp.callTool({ name: 'list_watches', arguments: {} });
      expect(watches.isError).toBe(true);
      expect(JSON.stringify(watches.content)).toContain('unauthorized: This tool needs an account token');
      await mcp.close();
    });

    it('with an account token manages watches, channels and alerts', async () => {
      const { token } = await newAccount(call);
      const channel = await call<{ id: string }>('POST', '/api/channels', {
        token,
        body: { kind: 'webhook', target: 'https://93.184.216.34/in' },
      });
      const mcp = await connect(token);
      const added = await mcp.callTool({
        name: 'add_watch',
        arguments: { address: WALLET, role: 'own', rules: { liquidation: { belowPct: 3 } } },
      });
      const watch = added.structuredContent as { watch: { id: string }; created: boolean };
      expect(watch.created).toBe(true);
      const again = await mcp.callTool({ name: 'add_watch', arguments: { address: WALLET, role: 'own' } });
      expect((again.structuredContent as { watch: { id: string } }).watch.id).toBe(watch.watch.id);
      const updated = await mcp.callTool({
        name: 'update_watch',
        arguments: { id: watch.watch.id, rules: { opened: false } },
      });
      expect(updated.structuredContent).toMatchObject({
        watch: { rules: { opened: false, liquidation: { belowPct: 3 } } },
      });
      const bad = await mcp.callTool({
        name: 'update_watch',
        arguments: { id: watch.watch.id, rules: { liquidation: { foo: 1 } } },
      });
      expect(bad.isError).toBe(true);
      expect(bad.content).toEqual([{ type: 'text', text: 'unknown_key: Unknown key "rules.liquidation.foo".' }]);
      const outOfRange = await mcp.callTool({
        name: 'add_watch',
        arguments: { address: WALLET, rules: { sessionKey: { withinDays: 31 } } },
      });
      expect(outOfRange.isError).toBe(true);
      expect(JSON.stringify(outOfRange.content)).toContain(
        'validation_failed: rules.sessionKey.withinDays must not be greater than 30',
      );
      expect((await mcp.callTool({ name: 'list_watches', arguments: {} })).structuredContent).toMatchObject({
        watches: [{ id: watch.watch.id }],
      });
      const paused = await mcp.callTool({
        name: 'set_channel_status',
        arguments: { id: channel.body.id, status: 'paused' },
      });
      expect(paused.structuredContent).toMatchObject({ channel: { id: channel.body.id, status: 'paused' } });
      expect((await mcp.callTool({ name: 'list_channels', arguments: {} })).structuredContent).toMatchObject({
        channels: [{ status: 'paused' }],
      });
      expect((await mcp.callTool({ name: 'list_alerts', arguments: { limit: 5 } })).structuredContent).toEqual({
        alerts: [],
        nextBefore: null,
      });
      expect((await mcp.callTool({ name: 'remove_watch', arguments: { id: watch.watch.id } })).isError).toBeFalsy();
      const missing = await mcp.callTool({ name: 'remove_watch', arguments: { id: watch.watch.id } });
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toContain('not_found');
      await mcp.close();
      const me = await call<{ watches: unknown[]; channels: { status: string }[] }>('GET', '/api/me', { token });
      expect(me.body.watches).toEqual([]);
      expect(me.body.channels[0]!.status).toBe('paused');
    });

    it('with an account token offers every bearer-token endpoint as a tool, through the same services as REST', async () => {
      const { id: accountId, token } = await newAccount(call);
      const mcp = await connect(token);
      const names = (await mcp.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'list_watches',
          'add_watch',
          'update_watch',
          'remove_watch',
          'list_channels',
          'add_channel',
          'set_channel_status',
          'remove_channel',
          'test_channel',
          'create_telegram_link',
          'get_protocol_rules',
          'set_protocol_rules',
          'list_alerts',
          'list_dead_deliveries',
          'retry_delivery',
          'get_my_account',
          'delete_my_account',
        ]),
      );
      expect(names).not.toContain('create_account');
      const tool = async <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}) => {
        const result = await mcp.callTool({ name, arguments: args });
        return {
          error: result.isError ? JSON.stringify(result.content) : undefined,
          data: result.structuredContent as T,
        };
      };

      const added = await tool<{ channel: { id: string; signingSecret: string; target: string } }>('add_channel', {
        kind: 'webhook',
        target: `${hook.url}/mcp-hook`,
        label: 'agent',
      });
      expect(added.error).toBeUndefined();
      expect(added.data.channel).toMatchObject({
        target: `http://${hook.hostPort}/****`,
        signingSecret: expect.stringMatching(/^whsec_/),
      });
      const channelId = added.data.channel.id;
      expect((await tool('add_channel', { kind: 'webhook', target: 'http://10.0.0.1/x' })).error).toContain(
        'target_not_allowed',
      );
      hook.received.length = 0;
      const tested = await tool<{ delivered: boolean; eventId: string }>('test_channel', { id: channelId });
      expect(tested.data).toMatchObject({ delivered: true });
      expect(hook.received.map((r) => r.headers['x-service-alerts-event-id'])).toEqual([tested.data.eventId]);
      expect((await tool('set_channel_status', { id: channelId, status: 'paused' })).data).toMatchObject({
        channel: { status: 'paused' },
      });
      expect((await tool('test_channel', { id: channelId })).error).toContain('conflict: The channel is paused');
      expect(hook.received).toHaveLength(1);
      expect((await tool('create_telegram_link')).error).toContain('telegram_not_configured');

      expect((await tool('get_protocol_rules')).data).toMatchObject({
        protocolRules: { marketStatus: { enabled: false } },
      });
      const rules = await tool('set_protocol_rules', { marketStatus: { enabled: true, markets: ['BTC'] } });
      expect(rules.data).toMatchObject({
        protocolRules: { marketStatus: { enabled: true, markets: ['BTC'] }, mintRate: { enabled: false } },
      });
      expect((await tool('set_protocol_rules', { mintRate: { enabled: true, every: 3 } })).error).toContain(
        'unknown_key: Unknown key \\"mintRate.every\\"',
      );
      expect((await call<{ protocolRules: unknown }>('GET', '/api/me', { token })).body.protocolRules).toMatchObject({
        marketStatus: { enabled: true, markets: ['BTC'] },
      });

      const [alert] = await sql<{ id: string }>(
        stack.database.url,
        `INSERT INTO alerts.alerts (account_id, event_id, kind, wallet, details, occurred_at) VALUES ($1, 'evt_mcp_dead', 'position_opened', $2, '{}', now()) RETURNING id`,
        [accountId, WALLET.toLowerCase()],
      );
      const [dead] = await sql<{ id: string }>(
        stack.database.url,
        `INSERT INTO alerts.deliveries (account_id, alert_id, channel_id, event_id, status, attempts, last_error) VALUES ($1, $2, $3, 'evt_mcp_dead', 'dead', 4, 'receiver answered 500') RETURNING id`,
        [accountId, alert!.id, channelId],
      );
      expect((await tool('list_dead_deliveries', { limit: 5 })).data).toMatchObject({
        deliveries: [{ id: dead!.id, eventId: 'evt_mcp_dead', lastError: 'receiver answered 500' }],
      });
      expect((await tool('list_dead_deliveries', { limit: 0 })).error).toContain('validation_failed');
      expect((await tool('retry_delivery', { id: dead!.id })).data).toMatchObject({
        delivery: { id: dead!.id, status: 'queued', attempts: 0, eventId: 'evt_mcp_dead' },
      });
      expect((await tool('retry_delivery', { id: dead!.id })).error).toContain('conflict');
      expect((await call<{ deliveries: unknown[] }>('GET', '/api/deliveries/dead', { token })).body.deliveries).toEqual(
        [],
      );

      expect((await tool('get_my_account')).data).toMatchObject({
        account: { id: accountId },
        channels: [{ id: channelId, status: 'paused' }],
        watches: [],
      });
      expect((await tool('remove_channel', { id: channelId })).data).toEqual({ removed: channelId });
      expect((await tool('list_channels')).data).toEqual({ channels: [] });
      expect((await tool('delete_my_account', {})).error).toBeDefined();
      expect((await tool('delete_my_account', { confirm: true })).data).toEqual({ deleted: accountId });
      await mcp.close();
      expect((await call('GET', '/api/me', { token })).status).toBe(401);
    });

    it('refuses an invalid token with 403 saying it takes an account token (no 401 to start OAuth), and GET/DELETE with 405', async () => {
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      };
      const res = await call('POST', '/mcp', {
        token: 'alrt_bad',
        body: init,
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32000,
          message: expect.stringContaining('takes an alerts account token, not OAuth'),
          data: { code: 'invalid_token' },
        },
      });
      expect(res.headers.get('www-authenticate')).toBeNull();
      // Nothing suggests an OAuth flow: there is no protected-resource or authorization-server metadata.
      for (const path of [
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-authorization-server',
      ]) {
        expect((await fetch(`${stack.alertsUrl}${path}`)).status).toBe(404);
      }
      // The SDK client sees the 403 with the message (a 401 would make clients with an OAuth provider sign in).
      await expect(connect('alrt_bad')).rejects.toMatchObject({ code: 403 });
      for (const method of ['GET', 'DELETE']) {
        const r = await call(method, '/mcp');
        expect(r.status).toBe(405);
        expect(r.headers.get('allow')).toBe('POST');
      }
    });
  });

  describe('POST /mcp transport checks', () => {
    it('refuses a foreign Host or Origin with 403 (DNS-rebinding protection) and serves server-side clients and admitted origins', async () => {
      await checkTransportSecurity(stack.alertsUrl);
    });

    it('answers tools/call without usable params, or naming no tool of its own (constructor, toString), with -32602', async () => {
      await checkToolCallParams(stack.alertsUrl);
      const { token } = await newAccount(call);
      await checkToolCallParams(stack.alertsUrl, { authorization: `Bearer ${token}` });
    });

    it('refuses text the database cannot store in tool arguments with 400 naming the field, writing nothing', async () => {
      const { token } = await newAccount(call);
      const addWatch = {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'add_watch', arguments: { address: WALLET, label: 'main\u0000' } },
      };
      const res = await call('POST', '/mcp', {
        token,
        body: addWatch,
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32602, message: expect.stringContaining('"params.arguments.label"') },
      });
      expect((await call<{ watches: unknown[] }>('GET', '/api/me', { token })).body.watches).toEqual([]);
      const notJson = await fetch(`${stack.alertsUrl}/mcp`, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'text/plain' },
        body: '{}',
      });
      expect(notJson.status).toBe(415);
      expect(await notJson.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, data: { code: 'unsupported_media_type' } },
      });
      const broken = await fetch(`${stack.alertsUrl}/mcp`, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        body: '{"jsonrpc":',
      });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    });
  });

  it('serves an OpenAPI 3.1 document that a standard validator accepts and that documents every endpoint', async () => {
    const res = await call<OpenAPIV3_1.Document>('GET', '/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(res.body) as never)).resolves.toBeDefined();
    const operations = Object.entries(res.body.paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /healthz',
        'GET /api/status',
        'POST /api/accounts',
        'GET /api/me',
        'DELETE /api/me',
        'POST /api/watches',
        'PATCH /api/watches/{id}',
        'DELETE /api/watches/{id}',
        'POST /api/channels',
        'PATCH /api/channels/{id}',
        'DELETE /api/channels/{id}',
        'POST /api/channels/{id}/test',
        'POST /api/telegram/link',
        'PUT /api/protocol-rules',
        'GET /api/alerts',
        'GET /api/deliveries/dead',
        'POST /api/deliveries/{id}/retry',
        'GET /api/upstream/tools',
        'GET /api/upstream/tools/{name}',
        'POST /mcp',
        'GET /openapi.json',
      ]),
    );
    const schemas = res.body.components!.schemas!;
    expect(schemas['LiquidationRuleDto']).toMatchObject({
      additionalProperties: false,
      properties: { belowPct: { minimum: 0.001, maximum: 50 } },
    });
    const watchPost = res.body.paths!['/api/watches']!.post!;
    expect(Object.keys(watchPost.responses!)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '409', '503']),
    );
  });
});
