import { type SourceAddresses, sourceAddresses, STACK_APPS, startTestStack, type TestStack } from '@paper/dev-stack';
import { listeningAddresses } from './tcp-sockets';

/** The error shape of each app: the tool envelope, or the alerts service's `{ code, message }`. */
const ALERTS_STYLE = new Set(['alerts-api', 'alerts-dispatcher', 'alerts-poller', 'venue-sim']);

function errorShape(style: 'tool-envelope' | 'alerts', code: string): Record<string, unknown> {
  const error = { code, message: expect.any(String) };
  return style === 'alerts' ? error : { ok: false, error };
}

const LONG_QUERY = `?q=${'a'.repeat(17 * 1024)}`;
const TWO_MB = JSON.stringify({ blob: 'y'.repeat(2 * 1024 * 1024) });

/**
 * What the local stack refuses, and how: URLs over 16 KB (431), 2 MB bodies (413, through the edge too),
 * a caller naming its own address in X-Forwarded-For (ignored unless it is the edge), and apps that
 * listen on loopback only, behind the edges.
 */
describe('the local stack’s edges and apps refuse oversized and forged requests in their documented shape', () => {
  let stack: TestStack;
  let callers: SourceAddresses;

  beforeAll(async () => {
    stack = await startTestStack();
    callers = sourceAddresses(8, 200);
  });

  afterAll(async () => {
    await callers?.close();
    await stack?.stop();
  });

  it('every app listens on loopback only', () => {
    for (const app of STACK_APPS) {
      const port = Number(new URL(stack.appUrls[app.name]!).port);
      expect({ app: app.name, listening: listeningAddresses(port) }).toEqual({
        app: app.name,
        listening: ['127.0.0.1'],
      });
    }
  });

  it.each(STACK_APPS.map((a) => a.name))('%s answers a URL over 16 KB with 431 in its error shape', async (app) => {
    const res = await callers.fetch(`${stack.appUrls[app]}/api/v1/tools${LONG_QUERY}`);
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual(
      errorShape(ALERTS_STYLE.has(app) ? 'alerts' : 'tool-envelope', 'request_header_fields_too_large'),
    );
  });

  it('both edges answer a URL over 16 KB with 431 in their service’s error shape', async () => {
    for (const [base, style] of [
      [stack.baseUrl, 'tool-envelope'],
      [stack.alertsUrl, 'alerts'],
    ] as const) {
      const res = await callers.fetch(`${base.replace('localhost', '127.0.0.1')}/api/status${LONG_QUERY}`);
      expect(res.status).toBe(431);
      expect(await res.json()).toEqual(errorShape(style, 'request_header_fields_too_large'));
    }
  });

  it('answers a 2 MB body with 413, never 502, through the edge and straight to the app', async () => {
    const edge = stack.baseUrl.replace('localhost', '127.0.0.1');
    for (const base of [edge, stack.appUrls['mcp-server']!]) {
      for (let i = 0; i < 10; i += 1) {
        const res = await callers.fetch(`${base}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: TWO_MB,
        });
        expect(res.status).toBe(413);
        expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
      }
    }
    for (const base of [edge, stack.appUrls['tools-gateway']!]) {
      const res = await callers.fetch(`${base}/api/v1/tools/get_markets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: TWO_MB,
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual(errorShape('tool-envelope', 'payload_too_large'));
    }
  });

  it('does not let a caller pick its rate-limit bucket with X-Forwarded-For, straight to the app or through the edge', async () => {
    const edge = stack.baseUrl.replace('localhost', '127.0.0.1');
    let forged = 0;
    for (const [index, base] of [stack.appUrls['tools-gateway']!, edge].entries()) {
      const send = callers.from(index);
      const answers = await Promise.all(
        Array.from({ length: 80 }, () =>
          send(`${base}/api/v1/tools/get_trading_permissions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${(forged += 1) % 250}` },
            body: '{}',
          }),
        ),
      );
      const limited = answers.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      expect(limited[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await limited[0]!.json()).toEqual(errorShape('tool-envelope', 'rate_limited'));
    }
  });
});
