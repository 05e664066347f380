import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HyperliquidInfoClient, type HyperliquidInfoClientOptions } from './hyperliquid-info.client';
import { UpstreamError } from './upstream-error';

type Handler = (body: Record<string, unknown>, res: ServerResponse) => void;

/** A real HTTP server on a free port whose /info answers come from the current test's handler. */
describe('HyperliquidInfoClient (against a local HTTP server)', () => {
  let server: Server;
  let baseUrl: string;
  let handler: Handler;
  let requests: Record<string, unknown>[];

  const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(value));
  };
  const client = (options: Partial<HyperliquidInfoClientOptions> = {}) =>
    new HyperliquidInfoClient({ baseUrl, timeoutMs: 300, retries: 2, backoffMs: 5, ...options });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected the call to fail');
      },
      (error: unknown) => error as UpstreamError,
    );

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/info') return json(res, 404, { error: 'not found' });
        const body = JSON.parse(raw) as Record<string, unknown>;
        requests.push(body);
        handler(body, res);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  beforeEach(() => {
    requests = [];
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('posts allMids to {baseUrl}/info and returns the mids', async () => {
    handler = (_body, res) => json(res, 200, { BTC: '100000.5', ETH: '3500.05' });
    await expect(client().allMids()).resolves.toEqual({ BTC: '100000.5', ETH: '3500.05' });
    expect(requests).toEqual([{ type: 'allMids' }]);
  });

  it('reads the best bid and ask from l2Book', async () => {
    handler = (body, res) =>
      json(res, 200, {
        coin: body['coin'],
        time: 1700000000000,
        levels: [
          [
            { px: '99999.9', sz: '1.5', n: 3 },
            { px: '99999.8', sz: '2', n: 1 },
          ],
          [{ px: '100000.1', sz: '0.7', n: 2 }],
        ],
      });
    await expect(client().bestBidAsk('BTC')).resolves.toEqual({
      coin: 'BTC',
      bid: '99999.9',
      ask: '100000.1',
      time: 1700000000000,
    });
    expect(requests[0]).toEqual({ type: 'l2Book', coin: 'BTC' });
  });

  it('fails with timeout when no answer comes in time, after retrying', async () => {
    handler = () => undefined; // never answers
    const error = await failure(client({ timeoutMs: 100, retries: 1 }).allMids());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.kind).toBe('timeout');
    expect(requests).toHaveLength(2);
  });

  it('retries a 5xx and returns the later success', async () => {
    let calls = 0;
    handler = (_body, res) => (++calls < 3 ? json(res, 503, { error: 'busy' }) : json(res, 200, { BTC: '1.0' }));
    await expect(client().allMids()).resolves.toEqual({ BTC: '1.0' });
    expect(calls).toBe(3);
  });

  it('gives up with unavailable when every attempt is a 5xx', async () => {
    handler = (_body, res) => json(res, 500, { error: 'down' });
    const error = await failure(client({ retries: 2 }).allMids());
    expect(error.kind).toBe('unavailable');
    expect(error.upstreamStatus).toBe(500);
    expect(requests).toHaveLength(3);
  });

  it('does not retry a 400 and reports bad_response', async () => {
    handler = (_body, res) => json(res, 400, { error: 'Failed to deserialize the JSON body' });
    const error = await failure(client().allMids());
    expect(error.kind).toBe('bad_response');
    expect(requests).toHaveLength(1);
  });

  it('honours Retry-After on 429 and then succeeds', async () => {
    const times: number[] = [];
    handler = (_body, res) => {
      times.push(Date.now());
      if (times.length === 1) return json(res, 429, { error: 'rate limited' }, { 'retry-after': '0.3' });
      return json(res, 200, { BTC: '2.0' });
    };
    await expect(client({ backoffMs: 1 }).allMids()).resolves.toEqual({ BTC: '2.0' });
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(280);
  });

  it('fails with rate_limited at once when Retry-After is longer than it will wait', async () => {
    handler = (_body, res) => json(res, 429, { error: 'rate limited' }, { 'retry-after': '60' });
    const error = await failure(client().allMids());
    expect(error.kind).toBe('rate_limited');
    expect(requests).toHaveLength(1);
  });

  it('accounts request weight and refuses calls once the budget is spent', async () => {
    handler = (body, res) =>
      body['type'] === 'candleSnapshot'
        ? json(
            res,
            200,
            Array.from({ length: 120 }, (_, i) => ({
              t: i * 60000,
              T: i * 60000 + 59999,
              s: 'BTC',
              i: '1m',
              o: '1',
              c: '1',
              h: '1',
              l: '1',
              v: '0',
              n: 0,
            })),
          )
        : json(res, 200, { BTC: '1' });
    // 100 a minute with a 10% margin: 90 to spend.
    const c = client({ weightPerMinute: 100, maxBudgetWaitMs: 0 });
    expect(c.weightCapacity).toBe(90);
    await c.allMids();
    expect(Math.floor(c.remainingWeight())).toBe(88);
    await c.candleSnapshot({ coin: 'BTC', interval: '1m', startTime: 0 });
    expect(Math.floor(c.remainingWeight())).toBe(88 - 20 - 2);
    for (let i = 0; i < 33; i += 1) await c.allMids();
    const error = await failure(c.allMids());
    expect(error.kind).toBe('rate_limited');
    expect(requests).toHaveLength(35);
  });

  it('reports bad_response for non-JSON and for unexpected shapes', async () => {
    handler = (_body, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    };
    expect((await failure(client().allMids())).kind).toBe('bad_response');
    handler = (_body, res) => json(res, 200, { coin: 'BTC', time: 1, levels: [[{ px: 'abc', sz: '1', n: 1 }], []] });
    expect((await failure(client().l2Book('BTC'))).kind).toBe('bad_response');
    handler = (_body, res) => json(res, 200, null);
    expect((await failure(client().l2Book('DOGE'))).detail).toContain('no book for coin DOGE');
    handler = (_body, res) => json(res, 200, [{ t: 1 }]);
    expect((await failure(client().candleSnapshot({ coin: 'BTC', interval: '1h', startTime: 0 }))).kind).toBe(
      'bad_response',
    );
    handler = (_body, res) => json(res, 200, [{ universe: [{ name: 'BTC', szDecimals: 5, maxLeverage: 40 }] }, []]);
    expect((await failure(client().metaAndAssetCtxs())).kind).toBe('bad_response');
  });

  it('reports unavailable when nothing listens', async () => {
    const error = await failure(
      new HyperliquidInfoClient({ baseUrl: 'http://127.0.0.1:1', retries: 1, backoffMs: 1 }).allMids(),
    );
    expect(error.kind).toBe('unavailable');
  });
});
