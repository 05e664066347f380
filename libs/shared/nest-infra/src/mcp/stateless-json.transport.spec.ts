import { SUPPORTED_PROTOCOL_VERSIONS, Server } from '@modelcontextprotocol/server';
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { SERVED_PROTOCOL_VERSIONS } from './mcp-revisions';
import { ModernResultFields } from './response-pieces';
import { serialisedOnce } from './serialised-results';
import { z } from 'zod';
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

const SERVER_INFO = { name: 'test', version: '1' };
const FIELDS = new ModernResultFields(SERVER_INFO, { ttlMs: 60_000, cacheScope: 'public' });

async function post(body: unknown, headers: IncomingHttpHeaders = HEADERS): Promise<Answer> {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => LISTING);
  server.setRequestHandler('echo/meta', { params: z.looseObject({}) }, () => ({ _meta: { own: 1 }, empty: {} }));
  const { res, answer } = recorder();
  const transport = new StatelessJsonTransport(res, FIELDS);
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
      1,
    ],
    [
      'another content type',
      { ...HEADERS, 'content-type': 'text/plain' },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      415,
      -32000,
      1,
    ],
    ['a message that is not JSON-RPC', HEADERS, { jsonrpc: '1.0', id: 7, method: 'ping' }, 400, -32600, 7],
    [
      'an id that is neither a string nor an integer',
      HEADERS,
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      400,
      -32600,
      null,
    ],
    ['a JSON value that is no message', HEADERS, 'ping', 400, -32600, null],
    [
      'initialize batched with another message',
      HEADERS,
      [initialize(1), { jsonrpc: '2.0', id: 2, method: 'ping' }],
      400,
      -32600,
      null,
    ],
    [
      'a batch over 100 messages',
      HEADERS,
      Array.from({ length: 101 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' })),
      400,
      -32600,
      null,
    ],
  ])('refuses %s', async (_what, headers, body, status, code, id) => {
    const answer = await post(body, headers);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
  });

  it('answers an unsupported MCP-Protocol-Version with -32022, the request id and the supported versions as data', async () => {
    const answer = await post(
      { jsonrpc: '2.0', id: 'v', method: 'ping' },
      { ...HEADERS, 'mcp-protocol-version': '1999-01-01' },
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      id: 'v',
      error: {
        code: -32022,
        message: expect.stringContaining('1999-01-01'),
        data: { supported: [...SERVED_PROTOCOL_VERSIONS], requested: '1999-01-01' },
      },
    });
    expect(SERVED_PROTOCOL_VERSIONS.slice(0, 2)).toEqual(['2026-07-28', '2025-11-25']);
  });

  it('accepts every protocol version the SDK supports', async () => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      expect(
        (await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { ...HEADERS, 'mcp-protocol-version': version })).status,
      ).toBe(200);
    }
  });
});

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-07-28 request and the headers that mirror it. */
function modern(method: string, params: Record<string, unknown> = {}, name?: string) {
  const headers: IncomingHttpHeaders = { ...HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  if (name !== undefined) headers['mcp-name'] = name;
  return { headers, body: { jsonrpc: '2.0', id: 9, method, params: { ...params, _meta: MODERN_META } } };
}

describe('stateless JSON transport, MCP 2026-07-28', () => {
  it('adds resultType, the server identity and (on lists) caching hints to a stored result, spliced as serialised', async () => {
    const { headers, body } = modern('tools/list');
    const answer = await post(body, headers);
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Length']).toBe(Buffer.byteLength(answer.body));
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      result: {
        ...LISTING,
        resultType: 'complete',
        ttlMs: 60_000,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
      },
    });
  });

  it('merges the server identity into a result that has its own _meta, without caching hints off the lists', async () => {
    const { headers, body } = modern('echo/meta');
    expect(JSON.parse((await post(body, headers)).body)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      result: {
        empty: {},
        resultType: 'complete',
        _meta: { own: 1, 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
      },
    });
  });

  it('answers the methods the revision removed, and unknown ones, with 404 and -32601, keeping the id', async () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'prompts/list']) {
      const { headers, body } = modern(method);
      const answer = await post(body, headers);
      expect([method, answer.status]).toEqual([method, 404]);
      expect(JSON.parse(answer.body)).toMatchObject({ id: 9, error: { code: -32601 } });
    }
  });

  it.each([
    [
      'no _meta',
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      { jsonrpc: '2.0', id: 9, method: 'tools/list' },
      -32602,
    ],
    [
      'a _meta without clientCapabilities',
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      },
      -32602,
    ],
    [
      'an unknown version in _meta',
      { 'mcp-protocol-version': '1900-01-01', 'mcp-method': 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/list',
        params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } },
      },
      -32022,
    ],
    ['no MCP-Protocol-Version header', { 'mcp-method': 'tools/list' }, modern('tools/list').body, -32020],
    [
      'another MCP-Protocol-Version header',
      { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list' },
      modern('tools/list').body,
      -32020,
    ],
    ['no Mcp-Method header', { 'mcp-protocol-version': '2026-07-28' }, modern('tools/list').body, -32020],
    [
      'another Mcp-Method',
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' },
      modern('tools/list').body,
      -32020,
    ],
    ['a tools/call without Mcp-Name', modern('tools/call').headers, modern('tools/call', { name: 'x' }).body, -32020],
    [
      'a tools/call naming another tool',
      modern('tools/call', {}, 'y').headers,
      modern('tools/call', { name: 'x' }).body,
      -32020,
    ],
  ])('refuses %s with 400, keeping the id', async (_what, extra, body, code) => {
    const answer = await post(body, { ...HEADERS, ...extra });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code } });
  });

  it('still has the SDK check the _meta keys it knows (a progressToken that is an object is not a request)', async () => {
    const { headers, body } = modern('tools/list');
    const bad = { ...body, params: { _meta: { ...MODERN_META, progressToken: { x: 1 } } } };
    const answer = await post(bad, headers);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ id: 9, error: { code: -32600 } });
  });

  it('takes an Mcp-Name in its base64 form, and refuses a batch', async () => {
    const { headers, body } = modern(
      'tools/call',
      { name: 'écho' },
      `=?base64?${Buffer.from('écho').toString('base64')}?=`,
    );
    const answer = await post(body, headers);
    expect(JSON.parse(answer.body)).toMatchObject({ id: 9, error: { code: -32601 } }); // no tools/call handler here
    const batch = await post([body], headers);
    expect(batch.status).toBe(400);
    expect(JSON.parse(batch.body)).toMatchObject({ id: null, error: { code: -32600 } });
  });
});
