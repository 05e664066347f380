import { STACK_APPS, startTestStack, type TestStack } from '@paper/dev-stack';

describe('the whole stack (smoke)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.each(STACK_APPS.map((a) => a.name))('%s reports ready with its connections up', async (app) => {
    const res = await fetch(`${stack.appUrls[app]}/readyz`);
    const body = (await res.json()) as { status: string; checks: Record<string, string> };
    expect(res.status).toBe(200);
    expect(body.status).toBe('ok');
    expect(Object.values(body.checks).every((c) => c === 'up')).toBe(true);
  });

  it('serves Prometheus metrics from every app', async () => {
    for (const app of STACK_APPS) {
      const text = await (await fetch(`${stack.appUrls[app.name]}/metrics`)).text();
      expect(text).toContain(`app="${app.name}"`);
    }
  });

  it.each([
    ['tools-gateway', '/api/v1/tools'],
    ['tools-gateway', '/openapi.json'],
    ['mcp-server', '/.well-known/oauth-protected-resource/mcp'],
    ['oauth-server', '/.well-known/oauth-authorization-server'],
    ['oauth-server', '/jwks'],
  ])('serves %s through the base URL at %s', async (_app, path) => {
    const res = await fetch(`${stack.baseUrl}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('json');
    expect(typeof (await res.json())).toBe('object');
  });

  it('answers MCP initialize through the base URL', async () => {
    const res = await fetch(`${stack.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'smoke', version: '1' } },
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"protocolVersion"');
  });

  it('shows live venue prices ingested by trading-executor through the base URL', async () => {
    const deadline = Date.now() + 30000;
    let markets: Array<{ market: string; markPrice: number }> = [];
    while (Date.now() < deadline) {
      const body = (await (await fetch(`${stack.baseUrl}/api/v1/tools/get_markets`)).json()) as {
        ok: boolean;
        data?: { markets: typeof markets };
      };
      markets = body.data?.markets ?? [];
      if (markets.length === 2 && markets.every((m) => m.markPrice > 0)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(markets.map((m) => m.market).sort()).toEqual(['BTC', 'ETH']);
    expect(markets.every((m) => m.markPrice > 0)).toBe(true);
  });

  it('serves the alerts service through the alerts base URL', async () => {
    const health = await fetch(`${stack.alertsUrl}/healthz`);
    expect(health.status).toBe(200);
    await health.body?.cancel();
    const status = (await (await fetch(`${stack.alertsUrl}/api/status`)).json()) as { ready: boolean };
    expect(status.ready).toBe(true);
  });

  it('answers unrouted paths on the base URL with a 404 envelope', async () => {
    const res = await fetch(`${stack.baseUrl}/no-such-route`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('keeps probes and metrics off both base URLs, as the Ingress does', async () => {
    for (const path of ['/readyz', '/livez', '/metrics']) {
      const tools = await fetch(`${stack.baseUrl}${path}`);
      expect([path, tools.status, await tools.json()]).toMatchObject([
        path,
        404,
        { ok: false, error: { code: 'not_found' } },
      ]);
      const alerts = await fetch(`${stack.alertsUrl}${path}`);
      expect([path, alerts.status, await alerts.json()]).toMatchObject([path, 404, { code: 'not_found' }]);
    }
  });

  it('drains and exits 0 on SIGTERM', async () => {
    const code = await stack.stopApp('alerts-dispatcher');
    expect(code).toBe(0);
    await stack.restartApp('alerts-dispatcher');
    const res = await fetch(`${stack.appUrls['alerts-dispatcher']}/readyz`);
    expect(res.status).toBe(200);
  });
});
