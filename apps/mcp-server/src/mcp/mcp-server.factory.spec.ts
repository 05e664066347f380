import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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
    write: (chunk: Buffer) => chunks.push(chunk),
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
