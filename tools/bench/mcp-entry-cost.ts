/**
 * In process, what one MCP request costs the server's CPU at the HTTP entry, the same tool behind both:
 * mcp-server's entry (`McpEndpoint`: the stateless JSON transport on Node's request and response, a pooled
 * protocol server) against the MCP SDK's own entry (`createMcpHandler`: a server built per request,
 * web-standard `Request` and `Response`, 2025 clients through its stateless legacy fallback).
 */
import { Server, createMcpHandler } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { McpEndpoint, RequestServer, serialisedOnce } from '@paper/nest-infra';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventEmitter } from 'node:events';

const INFO = { name: 'bench', version: '1' };
const CAPABILITIES = { tools: { listChanged: false } };
const ACCEPT = 'application/json, text/event-stream';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

interface Call {
  label: string;
  headers: Record<string, string>;
  body: object;
}

function call(revision: '2025-11-25' | '2026-07-28', method: 'tools/call' | 'tools/list'): Call {
  const modern = revision === '2026-07-28';
  const params: Record<string, unknown> = method === 'tools/call' ? { name: 'tool_0', arguments: { a: 'x' } } : {};
  const headers: Record<string, string> = { accept: ACCEPT, 'content-type': 'application/json' };
  if (modern) {
    Object.assign(headers, { 'mcp-protocol-version': revision, 'mcp-method': method });
    if (method === 'tools/call') headers['mcp-name'] = 'tool_0';
  }
  return {
    label: `${method}, MCP ${revision}`,
    headers,
    body: { jsonrpc: '2.0', id: 1, method, params: modern ? { ...params, _meta: MODERN_META } : params },
  };
}

/** A Node response that resolves once its answer is written. */
function nodeResponse(): { res: ServerResponse; written: Promise<void> } {
  let done: () => void = () => undefined;
  const written = new Promise<void>((resolve) => (done = resolve));
  const res = Object.assign(new EventEmitter(), {
    writeHead: () => res,
    cork: () => undefined,
    uncork: () => undefined,
    write: () => true,
    end: () => {
      done();
      return res;
    },
  });
  return { res: res as unknown as ServerResponse, written };
}

async function cpuMicrosPerCall(serve: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 300; i += 1) await serve();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let calls = 0;
  while (process.hrtime.bigint() - started < 1_000_000_000n) {
    await serve();
    calls += 1;
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / calls;
}

/** CPU µs per request at each entry, for tools/call and tools/list on both revisions. */
export async function mcpEntryCost(): Promise<{ label: string; endpoint: number; sdk: number }[]> {
  const validator = new AjvJsonSchemaValidator();
  const listing = serialisedOnce({
    tools: Array.from({ length: 19 }, (_, i) => ({
      name: `tool_${i}`,
      description: 'A tool of the catalog. '.repeat(12),
      inputSchema: { type: 'object' as const, properties: { a: { type: 'string' } } },
    })),
  });
  const result = { content: [{ type: 'text' as const, text: 'A result. '.repeat(40) }], structuredContent: { a: 1 } };
  const endpoint = new McpEndpoint<undefined>({
    serverInfo: INFO,
    create: () => {
      const server = new RequestServer(INFO, { capabilities: CAPABILITIES, jsonSchemaValidator: validator });
      server.setDirectHandler('tools/list', () => listing);
      server.setToolCallHandler(async () => result);
      return { server, bind: () => undefined };
    },
  });
  const sdk = createMcpHandler(() => {
    const server = new Server(INFO, { capabilities: CAPABILITIES, jsonSchemaValidator: validator });
    server.setRequestHandler('tools/list', () => listing);
    server.setRequestHandler('tools/call', async () => result);
    return server;
  });
  const rows = [];
  for (const c of [
    call('2025-11-25', 'tools/call'),
    call('2026-07-28', 'tools/call'),
    call('2025-11-25', 'tools/list'),
    call('2026-07-28', 'tools/list'),
  ]) {
    const viaEndpoint = () => {
      const { res, written } = nodeResponse();
      void endpoint.handle({ headers: c.headers } as unknown as IncomingMessage, res, c.body, undefined);
      return written;
    };
    // What a Node mount of the SDK's entry does per request: a web Request in, the Response read out.
    const viaSdk = async () => {
      const request = new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: c.headers,
        body: JSON.stringify(c.body),
      });
      return (await sdk.fetch(request)).arrayBuffer();
    };
    rows.push({ label: c.label, endpoint: await cpuMicrosPerCall(viaEndpoint), sdk: await cpuMicrosPerCall(viaSdk) });
  }
  await sdk.close();
  return rows;
}
