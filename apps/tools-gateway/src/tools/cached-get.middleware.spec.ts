import type { Request, Response } from 'express';
import { cachedPublicGet } from './cached-get.middleware';
import type { RestToolCalls } from './rest-tool-calls.service';

function run(method: string, url: string, serves: boolean) {
  const seen: string[] = [];
  const calls = { tryServeCached: (req: Request) => (seen.push(req.url), serves) } as unknown as RestToolCalls;
  const req = { method, url } as Request & { route?: { path: string } };
  let nextCalled = false;
  cachedPublicGet(calls)(req, {} as Response, () => (nextCalled = true));
  return { seen, nextCalled, route: req.route?.path };
}

describe('cachedPublicGet', () => {
  it('answers a public GET the cache can serve, labelled with the controller route for the metrics', () => {
    expect(run('GET', '/api/v1/tools/get_markets', true)).toEqual({
      seen: ['/api/v1/tools/get_markets'],
      nextCalled: false,
      route: '/api/v1/tools/:name',
    });
  });

  it('passes on what the cache cannot serve', () => {
    expect(run('GET', '/api/v1/tools/get_markets?x=1', false)).toMatchObject({ nextCalled: true, route: undefined });
  });

  it.each([
    ['POST', '/api/v1/tools/get_markets'],
    ['GET', '/api/v1/me/tools/get_account'],
    ['GET', '/api/v1/tools'],
    ['GET', '/openapi.json'],
  ])('never looks at %s %s', (method, url) => {
    expect(run(method, url, true)).toEqual({ seen: [], nextCalled: true, route: undefined });
  });
});
