import http from 'node:http';
import { MCP_ACCEPT, rawMcpPost } from './mcp-test-client';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
};

/** A POST to an MCP endpoint with a chosen Host header (fetch never sends one of its own choosing). */
export function postWithHost(
  endpoint: string,
  host: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(endpoint);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: MCP_ACCEPT, ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * DNS-rebinding protection of an MCP endpoint (`baseUrl` + /mcp): a foreign Host or a foreign Origin is
 * refused with 403 and a JSON-RPC error; server-side clients without Origin, the service's own origin and
 * (in development) loopback origins are served, with CORS for exactly those origins.
 */
export async function checkTransportSecurity(baseUrl: string): Promise<void> {
  const endpoint = `${baseUrl}/mcp`;
  const host = await postWithHost(endpoint, 'evil.example.com', INITIALIZE, { origin: 'http://evil.example.com' });
  expect(host.status).toBe(403);
  expect(JSON.parse(host.body)).toMatchObject({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message: expect.stringMatching(/Host/) },
  });

  const origin = await rawMcpPost(baseUrl, INITIALIZE, { origin: 'http://evil.example.com' });
  expect(origin.status).toBe(403);
  expect(origin.headers.get('access-control-allow-origin')).toBeNull();
  expect(await origin.json()).toMatchObject({
    error: { code: -32000, message: expect.stringContaining('MCP_ALLOWED_ORIGINS'), data: { code: 'forbidden' } },
  });
  const preflight = await fetch(endpoint, {
    method: 'OPTIONS',
    headers: { origin: 'http://evil.example.com', 'access-control-request-method': 'POST' },
  });
  expect(preflight.status).toBe(403);

  const serverSide = await rawMcpPost(baseUrl, INITIALIZE);
  expect(serverSide.status).toBe(200);
  expect(serverSide.headers.get('access-control-allow-origin')).toBeNull();
  for (const admitted of [new URL(baseUrl).origin, 'http://localhost:6274', 'http://127.0.0.1:5173']) {
    const res = await rawMcpPost(baseUrl, INITIALIZE, { origin: admitted });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(admitted);
    expect(res.headers.get('vary')).toMatch(/Origin/);
  }
  // Loopback Host names with any port are the development hosts.
  expect((await postWithHost(endpoint, '127.0.0.1:1', INITIALIZE)).status).toBe(200);
}

/** tools/call without params, with a name that is not a string, or naming an inherited property: -32602, not -32603. */
export async function checkToolCallParams(baseUrl: string, headers: Record<string, string> = {}): Promise<void> {
  const cases = [
    { jsonrpc: '2.0', id: 21, method: 'tools/call' },
    { jsonrpc: '2.0', id: 22, method: 'tools/call', params: { name: 7 } },
    { jsonrpc: '2.0', id: 23, method: 'tools/call', params: 'get_markets' },
    { jsonrpc: '2.0', id: 24, method: 'tools/call', params: { name: 'get_service_status', arguments: [1] } },
  ];
  for (const message of cases) {
    const res = await rawMcpPost(baseUrl, message, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      jsonrpc: '2.0',
      id: message.id,
      error: { code: -32602, message: expect.stringMatching(/^Invalid params/) },
    });
  }
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const res = await rawMcpPost(
      baseUrl,
      { jsonrpc: '2.0', id: 25, method: 'tools/call', params: { name, arguments: {} } },
      headers,
    );
    const body = (await res.json()) as { error?: { code: number; message: string } };
    expect(body.error).toMatchObject({ code: -32602 });
    expect(body.error!.message).not.toMatch(/disabled/);
  }
}
