import type { Request, Response } from 'express';
import { openCors } from './open-cors';

function call(handler: ReturnType<typeof openCors>, req: Partial<Request>) {
  const headers: Record<string, string> = {};
  let status: number | undefined;
  let nextCalled = false;
  const res = {
    setHeader: (name: string, value: string) => (headers[name] = value),
    status: (code: number) => ((status = code), { end: () => undefined }),
  } as unknown as Response;
  handler({ headers: {}, method: 'GET', path: '/', url: '/', ...req } as Request, res, () => (nextCalled = true));
  return { headers, status, nextCalled };
}

describe('openCors', () => {
  const cors = openCors({
    methodsFor: (req) => (req.path.startsWith('/open') ? 'GET, POST, OPTIONS' : undefined),
    allowHeaders: 'requested',
    exposeHeaders: 'Retry-After',
    maxAgeSeconds: 600,
  });

  it('leaves other paths alone', () => {
    expect(call(cors, { path: '/closed', method: 'OPTIONS' })).toEqual({
      headers: {},
      status: undefined,
      nextCalled: true,
    });
  });

  it('opens a path to any origin and exposes the listed headers', () => {
    expect(call(cors, { path: '/open/x' })).toEqual({
      headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Retry-After' },
      status: undefined,
      nextCalled: true,
    });
  });

  it('answers preflights itself, admitting the requested headers', () => {
    const preflight = call(cors, {
      path: '/open/x',
      method: 'OPTIONS',
      headers: { 'access-control-request-headers': 'Authorization, Last-Event-ID' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.nextCalled).toBe(false);
    expect(preflight.headers).toMatchObject({
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Access-Control-Allow-Headers': 'Authorization, Last-Event-ID',
      'Access-Control-Max-Age': '600',
    });
  });

  it('announces a fixed header list when given one', () => {
    const fixed = openCors({ methodsFor: () => 'GET, OPTIONS', allowHeaders: 'Accept', maxAgeSeconds: 60 });
    expect(
      call(fixed, { method: 'OPTIONS', headers: { 'access-control-request-headers': 'X-Other' } }).headers[
        'Access-Control-Allow-Headers'
      ],
    ).toBe('Accept');
  });
});
