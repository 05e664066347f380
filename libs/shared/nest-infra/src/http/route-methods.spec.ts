import { Controller, Get, Module, NotFoundException, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { GlobalExceptionFilter } from '../errors/global-exception.filter';
import { routeMethodsOf } from './route-methods';

@Controller('api/items')
class ItemsController {
  @Get()
  list(): unknown {
    return [];
  }

  @Get(':name')
  get(@Param('name') name: string): unknown {
    if (name === 'missing') throw new NotFoundException('no such item');
    return { name };
  }

  @Post(':name')
  post(@Param('name') name: string): unknown {
    return { name };
  }
}

@Module({ controllers: [ItemsController] })
class ItemsModule {}

describe('wrong methods: 405 with Allow from the routes of the path, 404 for unknown paths', () => {
  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    app = await NestFactory.create<NestExpressApplication>(ItemsModule, { logger: false });
    app.useGlobalFilters(new GlobalExceptionFilter('tool-envelope', pino({ level: 'silent' }), routeMethodsOf(app)));
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
  });

  const call = async (method: string, path: string) => {
    const res = await fetch(`${base}${path}`, { method });
    return { status: res.status, allow: res.headers.get('allow'), body: await res.json().catch(() => null) };
  };

  it('answers another method of a served path with 405, the methods in Allow, in the service error shape', async () => {
    expect(await call('DELETE', '/api/items/x')).toEqual({
      status: 405,
      allow: 'GET, HEAD, POST',
      body: {
        ok: false,
        error: {
          code: 'method_not_allowed',
          message: 'DELETE is not allowed on /api/items/x: it takes GET, HEAD, POST.',
        },
      },
    });
    expect(await call('POST', '/api/items')).toMatchObject({ status: 405, allow: 'GET, HEAD' });
    expect(await call('PUT', '/api/items/')).toMatchObject({ status: 405, allow: 'GET, HEAD' });
  });

  it('keeps 404 for unknown paths and for a handler that finds nothing', async () => {
    expect(await call('DELETE', '/api/other')).toMatchObject({
      status: 404,
      allow: null,
      body: { error: { code: 'not_found' } },
    });
    expect(await call('GET', '/api/items/x/y')).toMatchObject({ status: 404, allow: null });
    expect(await call('GET', '/api/items/missing')).toMatchObject({ status: 404, allow: null });
    expect(await call('GET', '/api/items/x')).toMatchObject({ status: 200, body: { name: 'x' } });
  });
});
