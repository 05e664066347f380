import { sourceAddresses, type TestStack, startTestStack } from '@paper/dev-stack';
import { SignJWT, generateKeyPair } from 'jose';
import { type CallResult, callTool, venueControl } from './tool-test-kit';
import { type TestIssuer, startTestIssuer } from './token-issuer';

const WALLET = `0x${'5a'.repeat(20)}`;

/** A 502 (or 503 for the exchange's own storage) in the envelope with a specific code, retry advice and Retry-After, never cached. */
function expectUnavailable(res: CallResult, code: string, what: string): void {
  const seen = { what, status: res.status, code: res.body.error?.code };
  expect(seen).toEqual({ what, status: code === 'exchange_unavailable' ? 503 : 502, code });
  expect(res.body).toEqual({ ok: false, error: { code, message: expect.stringMatching(/retry/i) } });
  expect(res.headers.get('retry-after')).toBe('2');
  expect(res.headers.get('cache-control')).toMatch(/no-store/);
}

/**
 * Without trading-executor there is no live price feed; without oauth-server nothing answers at the JWKS
 * URL; the venue can be told to fail; the gateway runs with small rate limits. Each caller calls the
 * gateway directly from its own loopback address.
 */
describe('tool API: upstream failures and rate limits', () => {
  let stack: TestStack;
  let gateway: string;
  const callers = sourceAddresses(64, 2000);
  let client = 0;
  /** A caller of its own: the next source address. */
  const as = () => ({ fetch: callers.from((client += 1)) });

  beforeAll(async () => {
    stack = await startTestStack({
      apps: ['venue-sim', 'tools-gateway'],
      env: {
        RATE_LIMIT_PUBLIC_PER_SECOND: '2',
        RATE_LIMIT_PUBLIC_BURST: '6',
        SIM_WEIGHT_PER_MINUTE: '150',
        UPSTREAM_RETRIES: '1',
      },
    });
    gateway = stack.appUrls['tools-gateway']!;
  });

  afterAll(async () => {
    await callers.close();
    await stack?.stop();
  });

  it('answers 502 with retry advice when no live price is available, and still calculates with a given entry', async () => {
    const markets = await callTool(gateway, 'get_markets', {}, as());
    expect(markets.status).toBe(502);
    expect(markets.body.error!.code).toBe('upstream_unavailable');
    expect(markets.body.error!.message).toMatch(/retry/i);
    expect(Number(markets.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(markets.headers.get('cache-control')).toBe('no-store');
    const live = await callTool(
      gateway,
      'calculate_position',
      { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1000 },
      as(),
    );
    expect(live.status).toBe(502);
    const given = await callTool(
      gateway,
      'calculate_position',
      { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1000, entryPrice: 100000 },
      as(),
    );
    expect(given.status).toBe(200);
    expect(given.body.data!['bustPrice']).toBe(99947.5);
  });

  it('answers 502 upstream_unavailable when the venue fails, for the tool and the chart page, and recovers', async () => {
    await venueControl(stack, 'fail', { mode: 'error', status: 503 });
    try {
      const res = await callTool(gateway, 'get_price_chart', { market: 'BTC', count: 10 }, as());
      expect(res.status).toBe(502);
      expect(res.body).toEqual({
        ok: false,
        error: { code: 'upstream_unavailable', message: expect.stringMatching(/try again/i) },
      });
      expect(res.headers.get('retry-after')).toBe('2');
      const chart = await as().fetch(`${gateway}/charts/BTC?count=10`);
      expect(chart.status).toBe(502);
      expect(await chart.text()).toContain('Chart unavailable');
    } finally {
      await venueControl(stack, 'fail', { mode: 'none' });
    }
    const ok = await callTool(gateway, 'get_price_chart', { market: 'BTC', count: 10 }, as());
    expect(ok.status).toBe(200);
    expect(ok.body.data!['candles']).toHaveLength(10);
  });

  it('answers 502 when the venue rate-limits the service', async () => {
    let last = await callTool(gateway, 'get_price_chart', { market: 'ETH', count: 11 }, as());
    for (let count = 12; count < 40 && last.status === 200; count += 1) {
      last = await callTool(gateway, 'get_price_chart', { market: 'ETH', count }, as());
    }
    expect(last.status).toBe(502);
    expect(last.body.error!.code).toBe('upstream_unavailable');
    expect(last.body.error!.message).toMatch(/rate-limiting/);
    expect(last.headers.get('retry-after')).toBe('2');
  });

  it('answers 502 auth_unavailable with retry advice when the authorization server cannot be reached to check a token', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const token = await new SignJWT({ wallet: WALLET, scope: 'trade:read' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
      .setIssuer('http://localhost')
      .setAudience('http://localhost/api/v1')
      .setSubject(WALLET)
      .setExpirationTime('5m')
      .sign(privateKey);
    expectUnavailable(
      await callTool(gateway, 'get_account', {}, { ...as(), token }),
      'auth_unavailable',
      'a tool on /me',
    );
    const me = await as().fetch(`${gateway}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expectUnavailable(
      { status: me.status, body: (await me.json()) as CallResult['body'], headers: me.headers },
      'auth_unavailable',
      'GET /api/v1/me',
    );
  });

  it('limits each caller with 429 rate_limited and Retry-After, independently of other callers', async () => {
    const caller = as();
    const answers = [];
    for (let i = 0; i < 10; i += 1)
      answers.push(await callTool(gateway, 'get_protocol_stats', {}, { ...caller, method: 'GET' }));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(answers.slice(0, 6).every((a) => a.status !== 429)).toBe(true);
    expect(limited[0]!.body.error!.code).toBe('rate_limited');
    expect(limited[0]!.body.error!.message).toContain('2 requests a second');
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const other = await callTool(gateway, 'get_protocol_stats', {}, as());
    expect(other.status).not.toBe(429);
  });
});

/** The exchange's own storage goes away under a running gateway: its database is dropped. */
describe('tool API: the exchange database goes away', () => {
  let stack: TestStack;
  let issuer: TestIssuer;
  let gateway: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    stack = await startTestStack({ apps: ['venue-sim', 'tools-gateway'], env: { OAUTH_JWKS_URL: issuer.jwksUrl } });
    gateway = stack.appUrls['tools-gateway']!;
    issuer.bind(stack.baseUrl);
  });

  afterAll(async () => {
    await stack?.stop();
    await issuer?.stop();
  });

  it('answers every tool that reads it with 503 exchange_unavailable in the envelope, never 500', async () => {
    const token = await issuer.mint({ wallet: WALLET, sessionKey: `0x${'7c'.repeat(20)}` });
    // Served while the database is there (another wallet: the answers below must not come from the cache).
    expect((await callTool(gateway, 'get_account', { wallet: `0x${'6b'.repeat(20)}` })).status).toBe(200);
    await stack.database.drop();
    const calls: [string, Record<string, unknown>, { token?: string }][] = [
      ['get_protocol_stats', {}, {}],
      ['get_leaderboard', { window: 'all' }, {}],
      ['get_top_trades', {}, {}],
      ['get_recent_trades', {}, {}],
      ['get_account', { wallet: WALLET }, {}],
      ['get_trade_history', { wallet: WALLET }, {}],
      ['get_portfolio_history', { wallet: WALLET }, {}],
      ['get_intent_status', { intentId: `0x${'ab'.repeat(32)}` }, {}],
      ['get_account', {}, { token }],
      ['close_positions', { all: true }, { token }],
      ['cancel_intent', { intentId: `0x${'ab'.repeat(32)}` }, { token }],
    ];
    for (const [name, args, o] of calls) {
      expectUnavailable(
        await callTool(gateway, name, args, { ...o, family: o.token ? 'me' : 'public' }),
        'exchange_unavailable',
        `${name}${o.token ? ' on /me' : ''}`,
      );
    }
    const me = await fetch(`${gateway}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expectUnavailable(
      { status: me.status, body: (await me.json()) as CallResult['body'], headers: me.headers },
      'exchange_unavailable',
      'GET /api/v1/me',
    );
  });
});
