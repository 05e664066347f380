import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolContext } from '@paper/tools-runtime';
import type { Request, Response } from 'express';
import { EventEmitter } from 'node:events';
import { McpServerFactory } from './mcp-server.factory';
import type { McpToolCalls } from './mcp-tool-calls.service';

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** A response that resolves with the JSON written to it. */
function response(): { res: Response; body: Promise<unknown> } {
  const chunks: Buffer[] = [];
  let done: (value: unknown) => void = () => undefined;
  const body = new Promise((resolve) => (done = resolve));
  const res = Object.assign(new EventEmitter(), {
    writeHead: () => res,
    cork: () => undefined,
    uncork: () => undefined,
    write: (chunk: Buffer | string) => chunks.push(Buffer.from(chunk)),
    end: (chunk?: string) => {
      if (chunk) chunks.push(Buffer.from(chunk));
      done(chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined);
      return res;
    },
  });
  return { res: res as unknown as Response, body };
}

const call = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});

describe('MCP server factory', () => {
  const seen: { name: string; ctx: ToolContext }[] = [];
  const gates = new Map<string, () => void>();
  const calls = {
    call: async (name: string, _args: unknown, ctx: ToolContext): Promise<CallToolResult> => {
      seen.push({ name, ctx });
      if (name.startsWith('slow')) await new Promise<void>((resolve) => gates.set(name, resolve));
      return { content: [{ type: 'text', text: `${name} for ${ctx.callerId}` }] };
    },
  } as unknown as McpToolCalls;
  const factory = new McpServerFactory(calls);
  const serve = (body: unknown, callerId: string) => {
    const { res, body: answer } = response();
    void factory.handle({ headers: HEADERS } as Request, res, body, { callerId } as ToolContext);
    return { res, answer };
  };
  /** The pooled servers waiting for a request (McpEndpoint's pool). */
  const idleServers = () => (factory as unknown as { endpoint: { idle: unknown[] } }).endpoint.idle.length;
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('answers concurrent requests each in its own caller context, then reuses the servers', async () => {
    const first = serve(call(1, 'slow-a'), 'alice');
    const second = serve(call(1, 'fast'), 'bob');
    expect(await second.answer).toMatchObject({ id: 1, result: { content: [{ text: 'fast for bob' }] } });
    gates.get('slow-a')!();
    expect(await first.answer).toMatchObject({ id: 1, result: { content: [{ text: 'slow-a for alice' }] } });
    await settle();
    const pooled = idleServers();
    expect(pooled).toBe(2);
    for (const caller of ['carol', 'dave', 'erin']) {
      expect(await serve(call(7, 'fast'), caller).answer).toMatchObject({
        id: 7,
        result: { content: [{ text: `fast for ${caller}` }] },
      });
      await settle();
    }
    expect(idleServers()).toBe(pooled);
  });

  it('answers a resources/read of no view with -32002 on 2025-11-25 and -32602 on 2026-07-28', async () => {
    const read = (id: number, params: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id,
      method: 'resources/read',
      params,
    });
    expect(await serve(read(1, { uri: 'ui://paper-perps/nothing' }), 'alice').answer).toMatchObject({
      id: 1,
      error: { code: -32002, message: 'Resource not found: ui://paper-perps/nothing' },
    });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const { res, body } = response();
    const modern = {
      ...HEADERS,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'resources/read',
      'mcp-name': 'ui://paper-perps/nothing',
    };
    void factory.handle(
      { headers: modern } as unknown as Request,
      res,
      read(2, { uri: 'ui://paper-perps/nothing', _meta: meta }),
      {
        callerId: 'bob',
      } as ToolContext,
    );
    expect(await body).toMatchObject({ id: 2, error: { code: -32602, data: { uri: 'ui://paper-perps/nothing' } } });
    expect(await serve(read(3, { uri: 42 }), 'carol').answer).toMatchObject({ id: 3, error: { code: -32602 } });
    const view = (await serve(read(4, { uri: 'ui://paper-perps/price-chart' }), 'dave').answer) as {
      result: { contents: { mimeType: string }[] };
    };
    expect(view.result.contents[0]!.mimeType).toBe('text/html;profile=mcp-app');
  });

  it('drops the server of a client that went away before its answer', async () => {
    const before = idleServers();
    const gone = serve(call(3, 'slow-b'), 'frank');
    await settle();
    gone.res.emit('close');
    gates.get('slow-b')!();
    await settle();
    expect(idleServers()).toBe(before - 1);
    expect(await serve(call(4, 'fast'), 'grace').answer).toMatchObject({
      id: 4,
      result: { content: [{ text: 'fast for grace' }] },
    });
  });
});
