import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { serialisedOnce } from './serialised-results';
import { StatelessJsonTransport } from './stateless-json.transport';

interface Answer {
  status: number;
  headers: Record<string, string | number>;
  body: string;
}

/** A Node response that records what is written to it. */
function recorder(): { res: ServerResponse; answer: Promise<Answer> } {
  const chunks: Buffer[] = [];
  let status = 0;
  let headers: Record<string, string | number> = {};
  let done: (answer: Answer) => void = () => undefined;
  const answer = new Promise<Answer>((resolve) => (done = resolve));
  const res = Object.assign(new EventEmitter(), {
    writeHead(code: number, h: Record<string, string | number> = {}) {
      status = code;
      headers = h;
      return res;
    },
    cork: () => undefined,
    uncork: () => undefined,
    write(chunk: Buffer) {
      chunks.push(Buffer.from(chunk));
      return true;
    },
    end(chunk?: string | Buffer) {
      if (chunk) chunks.push(Buffer.from(chunk));
      done({ status, headers, body: Buffer.concat(chunks).toString('utf8') });
      return res;
    },
  });
  return { res: res as unknown as ServerResponse, answer };
}

const LISTING = serialisedOnce({
  tools: [{ name: 'écho', description: 'ünïcode ✓', inputSchema: { type: 'object' as const } }],
});
const HEADERS: IncomingHttpHeaders = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
};

async function post(body: unknown, headers: IncomingHttpHeaders = HEADERS): Promise<Answer> {
  const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => LISTING);
  const { res, answer } = recorder();
  const transport = new StatelessJsonTransport(res);
  await server.connect(transport);
  transport.receive(headers, body);
  return answer;
}

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
});

describe('stateless JSON transport', () => {
  it('answers one request with one JSON-RPC response, a stored result spliced in as serialised', async () => {
    const answer = await post({ jsonrpc: '2.0', id: 'a', method: 'tools/list' });
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(answer.body),
    });
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', id: 'a', result: LISTING });
  });

  it('answers a batch with the responses in request order, and notifications alone with 202', async () => {
    const batch = await post([
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    ]);
    expect(JSON.parse(batch.body)).toEqual([
      { jsonrpc: '2.0', id: 2, result: {} },
      { jsonrpc: '2.0', id: 1, result: LISTING },
    ]);
    expect(batch.headers['Content-Length']).toBe(Buffer.byteLength(batch.body));
    const repeated = await post([
      { jsonrpc: '2.0', id: 5, method: 'ping' },
      { jsonrpc: '2.0', id: 5, method: 'ping' },
    ]);
    expect(JSON.parse(repeated.body)).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
    const notified = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notified).toMatchObject({ status: 202, body: '' });
  });

  it('negotiates initialize through the SDK and reports unknown methods as JSON-RPC errors', async () => {
    expect(JSON.parse((await post(initialize(1))).body)).toMatchObject({
      id: 1,
      result: { protocolVersion: '2025-11-25', serverInfo: { name: 'test' } },
    });
    expect(JSON.parse((await post({ jsonrpc: '2.0', id: 3, method: 'prompts/list' })).body)).toMatchObject({
      id: 3,
      error: { code: -32601 },
    });
  });

  it.each([
    [
      'no Accept of event streams',
      { ...HEADERS, accept: 'application/json' },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      406,
      -32000,
    ],
    [
      'another content type',
      { ...HEADERS, 'content-type': 'text/plain' },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      415,
      -32000,
    ],
    ['a message that is not JSON-RPC', HEADERS, { jsonrpc: '1.0', id: 1, method: 'ping' }, 400, -32700],
    [
      'an id that is neither a string nor an integer',
      HEADERS,
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      400,
      -32700,
    ],
    [
      'initialize batched with another message',
      HEADERS,
      [initialize(1), { jsonrpc: '2.0', id: 2, method: 'ping' }],
      400,
      -32600,
    ],
    [
      'a batch over 100 messages',
      HEADERS,
      Array.from({ length: 101 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' })),
      400,
      -32600,
    ],
    [
      'an unsupported MCP-Protocol-Version',
      { ...HEADERS, 'mcp-protocol-version': '1999-01-01' },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      400,
      -32000,
    ],
  ])('refuses %s', async (_what, headers, body, status, code) => {
    const answer = await post(body, headers);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
  });

  it('accepts every protocol version the SDK supports', async () => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      expect(
        (await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { ...HEADERS, 'mcp-protocol-version': version })).status,
      ).toBe(200);
    }
  });
});
