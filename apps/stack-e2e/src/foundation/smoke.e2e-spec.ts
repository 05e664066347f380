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

  it('answers unrouted paths on the base URL with a 404 envelope', async () => {
    const res = await fetch(`${stack.baseUrl}/no-such-route`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('routes the alerts base URL to alerts-api', async () => {
    const res = await fetch(`${stack.alertsUrl}/readyz`);
    expect(res.status).toBe(200);
  });

  it('drains and exits 0 on SIGTERM', async () => {
    const code = await stack.stopApp('alerts-dispatcher');
    expect(code).toBe(0);
    await stack.restartApp('alerts-dispatcher');
    const res = await fetch(`${stack.appUrls['alerts-dispatcher']}/readyz`);
    expect(res.status).toBe(200);
  });
});
