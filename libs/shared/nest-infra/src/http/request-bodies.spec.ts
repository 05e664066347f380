import { Body, Controller, Get, Module, Post, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { installRequestBodies, respondInStyle, respondJsonRpc } from './request-bodies';

@Controller()
class EchoController {
  @Post('echo')
  echo(@Body() body: unknown): unknown {
    return { body: body ?? null };
  }

  @Post('forms/echo')
  form(@Body() body: unknown): unknown {
    return { body };
  }

  @Post('mcp')
  mcp(@Body() body: unknown): unknown {
    return { body };
  }

  @Get('search')
  search(@Query() query: unknown): unknown {
    return { query };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('request bodies (JSON only, 415, 413, invalid JSON, text PostgreSQL cannot store)', () => {
  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    app = await NestFactory.create<NestExpressApplication>(EchoModule, { logger: false, bodyParser: false });
    const alerts = respondInStyle('alerts');
    installRequestBodies(app, {
      limit: '1kb',
      formPaths: ['/forms'],
      respond: (req, res, refusal) => (req.path === '/mcp' ? respondJsonRpc : alerts)(req, res, refusal),
    });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(() => app.close());

  // Without a type the body is sent as bytes (fetch would label a string text/plain).
  const post = (path: string, body: string, type?: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      body: type ? body : new TextEncoder().encode(body),
      headers: type ? { 'content-type': type } : {},
    }).then(async (r) => ({ status: r.status, json: await r.json() }));

  it('takes JSON bodies and no body at all', async () => {
    expect(await post('/echo', '{"label":"ok"}', 'application/json')).toEqual({
      status: 201,
      json: { body: { label: 'ok' } },
    });
    expect(await post('/echo', '{"a":1}', 'application/merge-patch+json; charset=utf-8')).toMatchObject({
      status: 201,
      json: { body: { a: 1 } },
    });
    expect(await post('/echo', '', 'text/plain')).toEqual({ status: 201, json: { body: null } });
  });

  it('refuses other content types with 415 in the service error shape', async () => {
    const plain = await post('/echo', '{"label":"x"}', 'text/plain;charset=UTF-8');
    expect(plain).toMatchObject({
      status: 415,
      json: { code: 'unsupported_media_type', message: expect.stringContaining('"text/plain;charset=UTF-8"') },
    });
    expect(await post('/echo', 'label=x', 'application/x-www-form-urlencoded')).toMatchObject({ status: 415 });
    expect(await post('/echo', '{"a":1}')).toMatchObject({
      status: 415,
      json: { message: expect.stringContaining('no Content-Type') },
    });
    // HTML forms only where they are expected.
    expect(await post('/forms/echo', 'label=x', 'application/x-www-form-urlencoded')).toEqual({
      status: 201,
      json: { body: { label: 'x' } },
    });
  });

  it('answers 413 above the limit and 400 for malformed JSON', async () => {
    expect(await post('/echo', JSON.stringify({ big: 'x'.repeat(2000) }), 'application/json')).toMatchObject({
      status: 413,
      json: { code: 'payload_too_large' },
    });
    expect(await post('/echo', '{"a":', 'application/json')).toMatchObject({
      status: 400,
      json: { code: 'invalid_json' },
    });
  });

  it('refuses NUL and unpaired surrogates in bodies, form fields and query strings, naming the field', async () => {
    expect(await post('/echo', '{"rules":{"label":"a\\u0000b"}}', 'application/json')).toMatchObject({
      status: 400,
      json: {
        code: 'validation_failed',
        message: expect.stringMatching(/^"rules\.label" contains a character that cannot be stored/),
      },
    });
    expect(await post('/echo', '{"label":"\\ud800"}', 'application/json')).toMatchObject({ status: 400 });
    expect(await post('/forms/echo', 'label=a%00b', 'application/x-www-form-urlencoded')).toMatchObject({
      status: 400,
      json: { message: expect.stringContaining('"label"') },
    });
    const query = await fetch(`${base}/search?q=a%00b`);
    expect(query.status).toBe(400);
    expect(((await query.json()) as { message: string }).message).toContain('"q"');
    expect((await fetch(`${base}/search?q=a%2500b`)).status).toBe(200);
  });

  it('refuses JSON nested more than 64 levels deep with 400 before parsing it, and takes 64 levels', async () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}[1]${'}'.repeat(depth - 1)}`;
    // 1 kB limit: 64 levels fit; deeper bodies are arrays (two bytes a level).
    expect((await post('/echo', nested(64), 'application/json')).status).toBe(201);
    expect(await post('/echo', `${'['.repeat(65)}${']'.repeat(65)}`, 'application/json')).toEqual({
      status: 400,
      json: { code: 'validation_failed', message: expect.stringContaining('more than 64 levels deep') },
    });
    expect(await post('/mcp', `${'['.repeat(400)}${']'.repeat(400)}`, 'application/json')).toEqual({
      status: 400,
      json: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringContaining('64 levels'), data: { code: 'too_deep' } },
      },
    });
    // Brackets inside strings are text, not nesting.
    expect((await post('/echo', JSON.stringify({ label: '['.repeat(200) }), 'application/json')).status).toBe(201);
  });

  it('answers JSON-RPC errors where the responder says so', async () => {
    expect(await post('/mcp', '{"jsonrpc":', 'application/json')).toEqual({
      status: 400,
      json: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringMatching(/^Parse error/), data: { code: 'invalid_json' } },
      },
    });
    const nul = await post(
      '/mcp',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"label":"\\u0000"}}}',
      'application/json',
    );
    expect(nul).toMatchObject({
      status: 400,
      json: { error: { code: -32602, message: expect.stringContaining('"params.arguments.label"') } },
    });
  });
});
