import { startTestStack, type TestStack } from '@paper/dev-stack';
import { randomBytes } from 'node:crypto';
import { type Answer, type Call, client, newAccount, type Receiver, startReceiver } from './alerts-test-kit';

/** Runs the calls `width` at a time (a client's own pool), in order of the array. */
async function inWaves<T>(calls: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < calls.length; i += width)
    results.push(...(await Promise.all(calls.slice(i, i + width).map((c) => c()))));
  return results;
}

function expectRateLimited(answer: Answer): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({
    code: 'rate_limited',
    message: expect.stringMatching(/^Too many requests .* Retry in \d+ seconds?\.$/),
  });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

/**
 * The alerts API's per-caller limits at their defaults, through the edge (the public door, which names
 * the caller in X-Forwarded-For) from many loopback source addresses, and the exchange proxy passing the
 * caller's address on.
 */
describe('alerts-api rate limits (defaults) and the exchange proxy forwarding the caller', () => {
  let stack: TestStack;
  let call: Call;
  let exchange: Receiver;

  beforeAll(async () => {
    exchange = await startReceiver();
    exchange.respond((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"data":{}}');
    });
    stack = await startTestStack({ apps: ['alerts-api'], env: { EXCHANGE_API_URL: exchange.url } });
    call = client(stack.alertsUrl, { honourRetryAfter: false });
  });

  afterAll(async () => {
    await stack?.stop();
    await exchange?.close();
  });

  it('500 account creations from one address: the burst of 10 is created, the rest get 429 with Retry-After', async () => {
    const answers = await inWaves(
      Array.from({ length: 500 }, () => () => call('POST', '/api/accounts', { from: '127.31.0.1' })),
      25,
    );
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(created).toHaveLength(10);
    expect(refused).toHaveLength(490);
    for (const answer of refused.slice(0, 20)) expectRateLimited(answer);
    // 20 an hour: the next account in 3 minutes.
    const wait = Number(refused.at(-1)!.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(60);
    expect(wait).toBeLessThanOrEqual(180);
  });

  it('account creations from many addresses do not interfere with each other, nor with an exhausted one', async () => {
    const addresses = Array.from({ length: 50 }, (_, i) => `127.32.0.${i + 1}`);
    const answers = await inWaves(
      addresses.flatMap((from) => Array.from({ length: 3 }, () => () => call('POST', '/api/accounts', { from }))),
      25,
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 150 }, () => 201));
    expect((await call('POST', '/api/accounts', { from: '127.31.0.1' })).status).toBe(429);
    // The same endpoint with a trailing slash (the router takes it) is the same limit.
    expect((await call('POST', '/api/accounts/', { from: '127.31.0.1' })).status).toBe(429);
    expect((await call('POST', '/api/accounts', { from: '127.32.1.1' })).status).toBe(201);
  });

  it('limits requests per account (20/s, bursts of 40), whatever the address; other accounts are not affected', async () => {
    const [busy, calm] = [await newAccount(call), await newAccount(call)];
    const started = Date.now();
    // One account from 200 addresses at once: the address does not matter, the account does.
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call('GET', '/api/me', { token: busy.token, from: `127.33.${Math.floor(i / 100)}.${(i % 100) + 1}` }),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    const allowed = answers.filter((a) => a.status === 200).length;
    expect(allowed).toBeGreaterThanOrEqual(40);
    expect(allowed).toBeLessThanOrEqual(40 + Math.ceil(seconds * 20) + 2);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused.slice(0, 10)) expectRateLimited(answer);
    expect((await call('GET', '/api/me', { token: calm.token })).status).toBe(200);
  });

  it('forged tokens (a fresh account id each) cannot dodge the limits: after a refused token they count per address', async () => {
    const forged = () => `alrt_${randomBytes(16).toString('hex')}_${'A'.repeat(43)}`;
    const from = '127.37.0.1';
    expect((await call('GET', '/api/me', { token: forged(), from })).status).toBe(401);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => call('GET', '/api/me', { token: forged(), from })),
    );
    expect(answers.filter((a) => a.status === 401).length).toBeLessThan(200);
    expectRateLimited(answers.find((a) => a.status === 429)!);
    // A real account's requests from another address are not affected.
    const { token } = await newAccount(call);
    expect((await call('GET', '/api/me', { token, from: '127.37.0.2' })).status).toBe(200);
  });

  it('answers 429 on /mcp as a JSON-RPC error', async () => {
    const { token } = await newAccount(call);
    const body = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const headers = { accept: 'application/json, text/event-stream' };
    const answers = await Promise.all(
      Array.from({ length: 150 }, () => call('POST', '/mcp', { token, body, headers, from: '127.34.0.1' })),
    );
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: expect.stringContaining('Too many requests'), data: { code: 'rate_limited' } },
    });
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('the exchange proxy forwards the caller address, through the edge and straight to the app', async () => {
    exchange.received.length = 0;
    expect((await call('GET', '/api/upstream/tools/get_markets', { from: '127.35.0.7' })).status).toBe(200);
    const direct = client(stack.appUrls['alerts-api']!, { honourRetryAfter: false });
    expect((await direct('GET', '/api/upstream/tools', { from: '127.35.0.8' })).status).toBe(200);
    const mcp = await call('POST', '/mcp', {
      from: '127.35.0.9',
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'exchange_get_markets', arguments: {} } },
    });
    expect(mcp.status).toBe(200);
    expect(exchange.received.map((r) => [r.url.split('?')[0], r.headers['x-forwarded-for']])).toEqual([
      ['/api/v1/tools/get_markets', '127.35.0.7'],
      ['/api/v1/tools', '127.35.0.8'],
      ['/api/v1/tools/get_markets', '127.35.0.9'],
    ]);
  });

  it('limits the exchange proxy per caller (20/s, bursts of 40) and keeps callers apart', async () => {
    exchange.received.length = 0;
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => call('GET', '/api/upstream/tools/get_markets', { from: '127.36.0.1' })),
    );
    const seconds = (Date.now() - started) / 1000;
    const allowed = answers.filter((a) => a.status === 200).length;
    expect(allowed).toBeGreaterThanOrEqual(40);
    expect(allowed).toBeLessThanOrEqual(40 + Math.ceil(seconds * 20) + 2);
    // Refused calls never reach the exchange.
    expect(exchange.received).toHaveLength(allowed);
    expectRateLimited(answers.find((a) => a.status === 429)!);
    expect((await call('GET', '/api/upstream/tools/get_markets', { from: '127.36.0.2' })).status).toBe(200);
  });
});
