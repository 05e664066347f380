import { BadRequestException, Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { requestLogger } from '../logging/request-logger';
import { GlobalExceptionFilter } from './global-exception.filter';

@Controller()
class FailingController {
  @Get('crash')
  crash(): never {
    throw new Error('database said something internal');
  }

  @Get('refuse')
  refuse(): never {
    throw new BadRequestException('bad input');
  }
}

@Module({ controllers: [FailingController] })
class FailingModule {}

describe('request ids on responses, server errors and their log lines', () => {
  let app: NestExpressApplication;
  let base: string;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    app = await NestFactory.create<NestExpressApplication>(FailingModule, { logger: false });
    app.use(requestLogger(logger));
    app.useGlobalFilters(new GlobalExceptionFilter('tool-envelope', logger));
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(() => app.close());

  it('a 500 names its request id in the body, the X-Request-Id header and both log lines', async () => {
    const res = await fetch(`${base}/crash`);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      ok: false,
      error: { code: 'internal_error', message: expect.any(String), requestId: id },
    });
    const failure = lines.find((l) => l['msg'] === 'request failed');
    expect(failure).toMatchObject({ reqId: id });
    expect(JSON.stringify(failure)).toContain('database said something internal');
    expect(lines.find((l) => (l['req'] as { id?: string } | undefined)?.id === id)).toMatchObject({
      res: { statusCode: 500 },
    });
  });

  it('client errors carry the id in the header only; a caller-chosen token id is kept, anything else replaced', async () => {
    const refused = await fetch(`${base}/refuse`, { headers: { 'x-request-id': 'trace-42.a:b' } });
    expect(refused.headers.get('x-request-id')).toBe('trace-42.a:b');
    expect(await refused.json()).toEqual({ ok: false, error: { code: 'invalid_arguments', message: 'bad input' } });
    const odd = await fetch(`${base}/refuse`, { headers: { 'x-request-id': 'has spaces and <html>' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
