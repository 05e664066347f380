import { startTestStack, type TestStack } from '@paper/dev-stack';
import { client, newAccount } from './alerts-test-kit';

const DEPTHS = [65, 5_000, 100_000];
/** `depth` nested arrays (two bytes a level, so 100,000 levels stay within every body limit). */
const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** An object whose `field` holds `depth - 1` more nested arrays. */
const deepField = (field: string, depth: number) => `{"${field}":${arrays(depth - 1)}}`;
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
}

const tooDeep = expect.stringContaining('more than 64 levels deep');

/**
 * JSON nested far deeper than any request needs (the probe that overflowed a recursive validator) gets
 * 400 in each service's documented shape on every service, through the edge and straight to the app.
 */
describe('deeply nested JSON on every service: 400 in its own shape, never 500', () => {
  let stack: TestStack;
  let alertsToken: string;

  beforeAll(async () => {
    stack = await startTestStack({
      apps: ['venue-sim', 'oauth-server', 'trading-executor', 'tools-gateway', 'mcp-server', 'alerts-api'],
    });
    ({ token: alertsToken } = await newAccount(client(stack.alertsUrl)));
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.each(DEPTHS)('tool API REST (%i levels): 400 invalid_arguments in the tool envelope', async (depth) => {
    for (const [door, base] of [
      ['through the edge', stack.baseUrl],
      ['straight to the app', stack.appUrls['tools-gateway']!],
    ]) {
      expect([door, await post(`${base}/api/v1/tools/calculate_position`, deepField('side', depth))]).toEqual([
        door,
        { status: 400, body: { ok: false, error: { code: 'invalid_arguments', message: tooDeep } } },
      ]);
    }
  });

  it.each(DEPTHS)('tool API MCP (%i levels): 400 JSON-RPC -32600 too_deep', async (depth) => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${deepField('arguments', depth - 1)}}`;
    for (const [door, base] of [
      ['through the edge', stack.baseUrl],
      ['straight to the app', stack.appUrls['mcp-server']!],
    ]) {
      expect([door, await post(`${base}/mcp`, body, MCP_HEADERS)]).toEqual([
        door,
        {
          status: 400,
          body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: tooDeep, data: { code: 'too_deep' } } },
        },
      ]);
    }
  });

  it.each(DEPTHS)(
    'OAuth (%i levels): registration answers 400 in the OAuth error format, the pages 400 in their envelope',
    async (depth) => {
      for (const [door, base] of [
        ['through the edge', stack.baseUrl],
        ['straight to the app', stack.appUrls['oauth-server']!],
      ]) {
        // A field the provider keeps (unknown ones are dropped); 100,000 levels exceed the 56 KiB registration body.
        const metadata = `{"redirect_uris":["http://127.0.0.1:9/cb"],"contacts":${arrays(depth - 1)}}`;
        expect([door, await post(`${base}/register`, metadata)]).toEqual([
          door,
          depth < 100_000
            ? { status: 400, body: { error: 'invalid_client_metadata', error_description: tooDeep } }
            : { status: 400, body: { error: 'invalid_request', error_description: expect.any(String) } },
        ]);
        expect([door, await post(`${base}/connections/challenge`, deepField('wallet', depth))]).toEqual([
          door,
          { status: 400, body: { ok: false, error: { code: 'invalid_arguments', message: tooDeep } } },
        ]);
      }
    },
  );

  it.each(DEPTHS)('alerts API (%i levels): 400 validation_failed, and a JSON-RPC error on /mcp', async (depth) => {
    for (const [door, base] of [
      ['through the edge', stack.alertsUrl],
      ['straight to the app', stack.appUrls['alerts-api']!],
    ]) {
      const auth = { authorization: `Bearer ${alertsToken}` };
      expect([door, await post(`${base}/api/watches`, deepField('rules', depth), auth)]).toEqual([
        door,
        { status: 400, body: { code: 'validation_failed', message: tooDeep } },
      ]);
      expect([door, await post(`${base}/api/accounts`, deepField('x', depth))]).toEqual([
        door,
        { status: 400, body: { code: 'validation_failed', message: tooDeep } },
      ]);
      const rpc = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${deepField('arguments', depth - 1)}}`;
      expect([door, await post(`${base}/mcp`, rpc, { ...MCP_HEADERS, ...auth })]).toEqual([
        door,
        {
          status: 400,
          body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: tooDeep, data: { code: 'too_deep' } } },
        },
      ]);
    }
  });
});
