import { type TestStack, startTestStack } from '@paper/dev-stack';
import { TOOL_CATALOG, publicTools, tradingTools } from '@paper/contracts';
import { Redis } from 'ioredis';
import {
  REDIS_URL,
  TRADING_APPS,
  type Trader,
  callTool,
  connectTrader,
  livePrice,
  setVenuePrice,
  venueControl,
  waitFor,
  waitForPrices,
} from './tool-test-kit';
import { expectValidData, outputValidator } from './output-schemas';
import { type TestIssuer, startTestIssuer } from './token-issuer';

/** Arguments that make each read tool succeed (filled in once the trader exists). */
function baseArgs(trader: Trader, intentId: string): Record<string, Record<string, unknown>> {
  return {
    get_markets: {},
    get_price_chart: { market: 'BTC', count: 20 },
    get_protocol_stats: {},
    get_liquidation_map: { market: 'BTC' },
    get_leaderboard: {},
    get_top_trades: {},
    get_recent_trades: {},
    get_account: { wallet: trader.wallet },
    get_trade_history: { wallet: trader.wallet },
    get_portfolio_history: { wallet: trader.wallet },
    calculate_position: { market: 'ETH', side: 'long', marginUsd: 100, leverage: 100, exitPrice: 4000 },
    get_deposit_info: { wallet: trader.wallet },
    get_trading_permissions: {},
    get_intent_status: { intentId },
  };
}

describe('tool API: read tools over HTTP', () => {
  let stack: TestStack;
  let issuer: TestIssuer;
  let trader: Trader;
  let openIntentId: string;
  let base: string;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    stack = await startTestStack({
      apps: [...TRADING_APPS],
      env: { OAUTH_JWKS_URL: issuer.jwksUrl },
    });
    base = stack.baseUrl;
    issuer.bind(base);
    await waitForPrices(base);
    trader = await connectTrader(stack, issuer, { guardrails: { requireConfirmation: false }, fundUsd: 20_000 });
    // Frozen venue prices; a winning BTC long and a losing ETH short closed, two positions left open.
    await venueControl(stack, 'freeze', { frozen: true });
    const btc = await livePrice(stack, 'BTC');
    const win = await callTool(
      base,
      'open_position',
      { market: 'BTC', side: 'long', marginUsd: 1000, leverage: 10 },
      { token: trader.token },
    );
    expect(win.status).toBe(200);
    openIntentId = win.body.data!['intentId'];
    await movePrice('BTC', btc.mid, 102n);
    const closed = await callTool(
      base,
      'close_positions',
      { positionIds: [win.body.data!['position'].positionId] },
      { token: trader.token },
    );
    expect(closed.body.data!['results'][0].status).toBe('closed');
    expect(closed.body.data!['results'][0].pnlUsd).toBeGreaterThan(0);
    const eth = await livePrice(stack, 'ETH');
    const lose = await callTool(
      base,
      'open_position',
      { market: 'ETH', side: 'short', marginUsd: 500, leverage: 20 },
      { token: trader.token },
    );
    await movePrice('ETH', eth.mid, 101n);
    const lost = await callTool(
      base,
      'close_positions',
      { positionIds: [lose.body.data!['position'].positionId] },
      { token: trader.token },
    );
    expect(lost.body.data!['results'][0].pnlUsd).toBeLessThan(0);
    await callTool(
      base,
      'open_position',
      { market: 'BTC', side: 'short', marginUsd: 1000, leverage: 10 },
      { token: trader.token },
    );
    await callTool(
      base,
      'open_position',
      { market: 'ETH', side: 'long', marginUsd: 200, leverage: 50 },
      { token: trader.token },
    );
  });

  /** Moves the venue mid of `market` to `percent`% of `from` and waits until the executor ingested it. */
  async function movePrice(market: 'BTC' | 'ETH', from: bigint, percent: bigint): Promise<void> {
    const scale = market === 'BTC' ? 10n : 100n;
    const target = (from * percent) / 100n;
    await setVenuePrice(stack, market, Number(target) / Number(scale));
    await waitFor(`the ${market} price move`, async () => {
      const now = (await livePrice(stack, market)).mid;
      const gap = now > target ? now - target : target - now;
      return gap * 1000n < target ? true : undefined;
    });
  }

  afterAll(async () => {
    await stack?.stop();
    await issuer?.stop();
  });

  it('lists 19 tools with descriptions, annotations, families and schemas', async () => {
    const res = await fetch(`${base}/api/v1/tools`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- listing entries are checked field by field
    const body = (await res.json()) as { ok: boolean; summary: string; data: { tools: Array<Record<string, any>> } };
    expect(body.ok).toBe(true);
    expect(body.data.tools.map((t) => t.name)).toEqual(TOOL_CATALOG.map((t) => t.name));
    const open = body.data.tools.find((t) => t.name === 'open_position')!;
    expect(open.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(open.endpoints.public).toBeNull();
    expect(open.endpoints.me).toMatchObject({
      path: '/api/v1/me/tools/open_position',
      operationId: 'me_open_position',
      methods: ['POST'],
    });
    expect(open.description).toMatch(/confirmation/);
    const markets = body.data.tools.find((t) => t.name === 'get_markets')!;
    expect(markets.annotations.readOnlyHint).toBe(true);
    expect(markets.endpoints.public.operationId).toBe('get_markets');
  });

  describe.each(publicTools().map((t) => t.name))('%s', (name) => {
    it.each([
      ['public', 'POST'],
      ['public', 'GET'],
      ['me', 'POST'],
      ['me', 'GET'],
    ] as const)(
      'runs on the %s family by %s with a summary and data matching its output schema',
      async (family, method) => {
        const args = baseArgs(trader, openIntentId)[name]!;
        const res = await callTool(base, name, args, {
          method,
          family,
          token: family === 'me' ? trader.token : undefined,
        });
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 200, error: undefined });
        expect(res.body.ok).toBe(true);
        expect(typeof res.body.summary).toBe('string');
        expect(res.body.summary!.length).toBeGreaterThan(10);
        expectValidData(name, res.body.data);
      },
    );
  });

  it.each(tradingTools().map((t) => t.name))(
    '%s is only on /me: 401 on the public family, 405 for GET on /me',
    async (name) => {
      const pub = await callTool(base, name, {}, {});
      expect(pub.status).toBe(401);
      expect(pub.body.error!.code).toBe('unauthorized');
      expect(pub.body.error!.message).toContain(`/api/v1/me/tools/${name}`);
      expect(pub.headers.get('www-authenticate')).toContain('Bearer');
      const get = await callTool(base, name, {}, { method: 'GET', token: trader.token });
      expect(get.status).toBe(405);
      expect(get.body.error!.code).toBe('method_not_allowed');
      expect(get.headers.get('allow')).toContain('POST');
    },
  );

  it.each([
    ['DELETE', '/api/v1/tools/get_markets', 'GET, HEAD, POST'],
    ['PUT', '/api/v1/tools/get_markets', 'GET, HEAD, POST'],
    ['POST', '/api/v1/tools', 'GET, HEAD'],
    ['DELETE', '/api/v1/me', 'GET, HEAD'],
    ['PUT', '/api/v1/me/tools/get_account', 'GET, HEAD, POST'],
    ['PATCH', '/api/v1/me/tools/open_position', 'GET, HEAD, POST'],
    ['POST', '/api/v1/events', 'GET, HEAD'],
    ['DELETE', '/api/v1/me/events', 'GET, HEAD'],
    ['POST', '/openapi.json', 'GET, HEAD'],
    ['POST', '/charts/BTC', 'GET, HEAD'],
  ])('answers %s %s with 405, Allow: %s, in the tool envelope', async (method, path, allow) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${trader.token}`, 'content-type': 'application/json' },
      body: method === 'DELETE' ? undefined : '{}',
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(await res.json()).toEqual({
      ok: false,
      error: { code: 'method_not_allowed', message: `${method} is not allowed on ${path}: it takes ${allow}.` },
    });
  });

  it('keeps 404 for paths no method serves', async () => {
    for (const [method, path] of [
      ['DELETE', '/api/v1/nothing'],
      ['GET', '/api/v1/tools/get_markets/extra'],
      ['POST', '/api/v2/tools/get_markets'],
    ] as const) {
      const res = await fetch(`${base}${path}`, { method });
      expect([method, path, res.status, res.headers.get('allow')]).toEqual([method, path, 404, null]);
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
    }
  });

  it('get_markets reports live prices, limits and open interest', async () => {
    const res = await callTool(base, 'get_markets', {}, { method: 'GET' });
    const [btc, eth] = res.body.data!['markets'];
    expect(btc).toMatchObject({
      market: 'BTC',
      maxLeverage: 1000,
      minMarginUsd: 10,
      minNotionalUsd: 10000,
      open: true,
      status: 'open',
    });
    expect(eth.market).toBe('ETH');
    expect(btc.bid).toBeLessThanOrEqual(btc.ask);
    expect(btc.markPrice).toBeGreaterThanOrEqual(btc.bid);
    expect(btc.openInterest.shortUsd).toBe(10000);
    expect(eth.openInterest.longUsd).toBe(10000);
    expect(btc.volume24hUsd).toBeGreaterThanOrEqual(30000);
    expect(typeof btc.change24hPercent).toBe('number');
  });

  it('get_account shows balances, live positions with bust price and distance, session keys and lifetime stats', async () => {
    const res = await callTool(base, 'get_account', {}, { token: trader.token });
    const d = res.body.data!;
    expect(d['wallet']).toBe(trader.wallet);
    expect(d['positions']).toHaveLength(2);
    const short = d['positions'].find((p: { side: string }) => p.side === 'short');
    expect(short).toMatchObject({ market: 'BTC', leverage: 10, marginUsd: 1000, notionalUsd: 10000 });
    expect(short.bustPrice).toBeGreaterThan(short.entryPrice);
    expect(short.liquidationDistancePercent).toBeGreaterThan(5);
    expect(d['lockedUsd']).toBe(1200);
    expect(d['sessionKeys']).toEqual([expect.objectContaining({ address: trader.sessionKey, active: true })]);
    expect(d['lifetime']).toMatchObject({ trades: 2, wins: 1, losses: 1, liquidations: 0 });
    expect(d['pendingIntents']).toEqual([]);
    expect(d['equityUsd']).toBeCloseTo(d['freeUsd'] + d['queuedUsd'] + d['lockedUsd'] + d['unrealizedPnlUsd'], 5);
  });

  it('defaults get_account and the other wallet tools to the connected wallet on /me, and asks for one on the public family', async () => {
    for (const name of ['get_account', 'get_trade_history', 'get_portfolio_history', 'get_deposit_info']) {
      const me = await callTool(base, name, {}, { token: trader.token });
      expect(me.body.data!['wallet']).toBe(trader.wallet);
      const pub = await callTool(base, name, {});
      expect(pub.status).toBe(400);
      expect(pub.body.error!.code).toBe('wallet_required');
      expect(pub.body.error!.message).toContain('wallet');
    }
  });

  it('applies the documented defaults', async () => {
    const chart = await callTool(base, 'get_price_chart', { market: 'ETH' });
    expect(chart.body.data).toMatchObject({ interval: '15m' });
    expect(chart.body.data!['candles']).toHaveLength(96);
    const stats = await callTool(base, 'get_protocol_stats', {});
    expect(stats.body.data!['history']).toHaveLength(14);
    const board = await callTool(base, 'get_leaderboard', undefined);
    expect(board.body.data).toMatchObject({ window: '24h', sortKey: 'rank', sortDir: 'asc', page: 0, pageSize: 25 });
    const history = await callTool(base, 'get_trade_history', { wallet: trader.wallet });
    expect(history.body.data).toMatchObject({ pages: 1, pageSize: 75, hasMore: false });
    const portfolio = await callTool(base, 'get_portfolio_history', { wallet: trader.wallet });
    expect(portfolio.body.data!['range']).toBe('1d');
    const top = await callTool(base, 'get_top_trades', {});
    expect(top.body.data!['window']).toBe('24h');
  });

  it('coerces query-string numbers and refuses text where a number belongs', async () => {
    const chart = await callTool(
      base,
      'get_price_chart',
      { market: 'BTC', interval: '1h', count: '12' },
      { method: 'GET' },
    );
    expect(chart.status).toBe(200);
    expect(chart.body.data!['candles']).toHaveLength(12);
    const stats = await callTool(base, 'get_protocol_stats', { days: '3' }, { method: 'GET' });
    expect(stats.body.data!['history']).toHaveLength(3);
    const calc = await callTool(
      base,
      'calculate_position',
      { market: 'BTC', side: 'short', marginUsd: '25.5', leverage: '400', entryPrice: '100000' },
      { method: 'GET' },
    );
    expect(calc.body.data).toMatchObject({ marginUsd: 25.5, leverage: 400, entryPrice: 100000, notionalUsd: 10200 });
    const bad = await callTool(base, 'get_protocol_stats', { days: 'seven' }, { method: 'GET' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({
      code: 'invalid_arguments',
      message: expect.stringContaining('"days" must be a number, got "seven"'),
    });
  });

  it('calculate_position defaults the entry to the live ask for a long and the live bid for a short', async () => {
    const price = await livePrice(stack, 'BTC');
    const long = await callTool(base, 'calculate_position', {
      market: 'BTC',
      side: 'long',
      marginUsd: 10,
      leverage: 1000,
      exitPrice: 1,
    });
    const short = await callTool(base, 'calculate_position', {
      market: 'BTC',
      side: 'short',
      marginUsd: 12,
      leverage: 1000,
    });
    expect(long.body.data).toMatchObject({ entrySource: 'live_ask', entryPrice: Number(price.ask) / 10 });
    expect(long.body.data!['exit']).toMatchObject({ liquidated: true, pnlUsd: -10 });
    expect(short.body.data).toMatchObject({ entrySource: 'live_bid', entryPrice: Number(price.bid) / 10, exit: null });
  });

  it('calculate_position settles with the exchange formula (win curve and 2% fee)', async () => {
    const res = await callTool(base, 'calculate_position', {
      market: 'BTC',
      side: 'long',
      marginUsd: 1000,
      leverage: 10,
      entryPrice: 100000,
      exitPrice: 101000,
    });
    const d = res.body.data!;
    expect(d['winFeePercent']).toBe(2);
    expect(d['bustPrice']).toBe(90042.8);
    expect(d['exit'].rawPnlUsd).toBe(99.8);
    expect(d['exit'].pnlUsd).toBeLessThan(d['exit'].rawPnlUsd * 0.9);
    expect(d['exit'].feeUsd).toBeGreaterThan(0);
    expect(d['exchangeLimits']).toEqual({ accepted: true, issue: null });
    const small = await callTool(base, 'calculate_position', {
      market: 'BTC',
      side: 'long',
      marginUsd: 5,
      leverage: 10,
      entryPrice: 100000,
    });
    expect(small.body.data!['exchangeLimits'].accepted).toBe(false);
    expect(small.body.data!['exchangeLimits'].issue).toContain('below');
  });

  it('get_leaderboard sorts by every sortKey both ways, pages by 25 and filters with q', async () => {
    const keys = (outputValidator('get_leaderboard').schema as { properties: Record<string, { enum?: string[] }> })
      .properties['sortKey']!.enum!;
    expect(keys).toHaveLength(12);
    for (const sortKey of keys) {
      for (const sortDir of ['asc', 'desc']) {
        const res = await callTool(base, 'get_leaderboard', { window: 'all', sortKey, sortDir }, { method: 'GET' });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ sortKey, sortDir });
      }
    }
    const all = await callTool(base, 'get_leaderboard', { window: '7d' });
    const row = all.body.data!['rows'].find((r: { address: string }) => r.address === trader.wallet);
    expect(row).toMatchObject({ currentOpenPositionCount: 2, currentOpenNotional: 20000 });
    expect(row.realizedPnl).toBeCloseTo(row.totalWindowedPnl - row.currentUnrealizedPnl, 5);
    const found = await callTool(base, 'get_leaderboard', { q: trader.wallet.slice(2, 12).toUpperCase() });
    expect(found.body.data!['rows'].map((r: { address: string }) => r.address)).toEqual([trader.wallet]);
    const none = await callTool(base, 'get_leaderboard', { q: 'nobody-has-this-name' });
    expect(none.body.data).toMatchObject({ totalRows: 0, rows: [] });
    const beyond = await callTool(base, 'get_leaderboard', { page: 1000 });
    expect(beyond.body.data!['rows']).toEqual([]);
  });

  it('get_top_trades and get_recent_trades report the trades, with market and wallet filters', async () => {
    const top = await callTool(base, 'get_top_trades', { window: '24h' });
    expect(top.body.data!['trades'][0]).toMatchObject({
      trader: trader.wallet,
      market: 'BTC',
      side: 'long',
      leverage: 10,
      status: 'closed',
    });
    expect(top.body.data!['trades'][0].pnlUsd).toBeGreaterThan(0);
    const recent = await callTool(base, 'get_recent_trades', { wallet: trader.wallet });
    expect(recent.body.data!['trades'].map((t: { type: string }) => t.type).sort()).toEqual([
      'close',
      'close',
      'open',
      'open',
      'open',
      'open',
    ]);
    const eth = await callTool(base, 'get_recent_trades', { market: 'ETH' });
    expect(eth.body.data!['trades'].every((t: { market: string }) => t.market === 'ETH')).toBe(true);
    expect(eth.body.data!['trades']).toHaveLength(3);
    const stranger = await callTool(base, 'get_recent_trades', { wallet: `0x${'9'.repeat(40)}` });
    expect(stranger.body.data!['trades']).toEqual([]);
  });

  it('get_trade_history returns closed trades newest first with entry, exit, PnL, fees and PAPER minted', async () => {
    const res = await callTool(base, 'get_trade_history', { wallet: trader.wallet, pages: 2 });
    const trades = res.body.data!['trades'];
    expect(trades).toHaveLength(2);
    expect(trades[0].market).toBe('ETH');
    expect(trades[1]).toMatchObject({ market: 'BTC', side: 'long', status: 'closed' });
    expect(trades[1].feeUsd).toBeGreaterThan(0);
    expect(trades[0].paperMinted).toBeGreaterThan(0);
    expect(Date.parse(trades[0].closedAt)).toBeGreaterThanOrEqual(Date.parse(trades[1].closedAt));
  });

  it('get_protocol_stats, get_liquidation_map and get_deposit_info read the exchange', async () => {
    const stats = await callTool(base, 'get_protocol_stats', { days: 2 });
    expect(stats.body.data).toMatchObject({ openPositions: 2, openNotionalUsd: 20000, traders: 1 });
    expect(stats.body.data!['history'][1].volumeUsd).toBeGreaterThanOrEqual(60000);
    const map = await callTool(base, 'get_liquidation_map', { market: 'BTC' });
    expect(map.body.data!['totals']).toEqual({
      longs: { notionalUsd: 0, count: 0 },
      shorts: { notionalUsd: 10000, count: 1 },
    });
    expect(map.body.data!['largestClusters'][0]).toMatchObject({ side: 'short', count: 1 });
    const deposit = await callTool(base, 'get_deposit_info', {}, { token: trader.token });
    expect(deposit.body.data).toMatchObject({
      minimumDepositUsd: 10,
      activationFeeUsd: 1,
      activated: true,
      mode: 'paper',
    });
    expect(deposit.body.data!['depositAddress']).toMatch(/^0x[0-9a-f]{40}$/);
  });

  it('get_trading_permissions and GET /api/v1/me describe the connection', async () => {
    const perms = await callTool(base, 'get_trading_permissions', {}, { token: trader.token });
    expect(perms.body.data).toMatchObject({
      connected: true,
      wallet: trader.wallet,
      canTrade: true,
      session: { active: true, address: trader.sessionKey },
    });
    expect(perms.body.data!['daily'].usedUsd).toBe(40000);
    const anonymous = await callTool(base, 'get_trading_permissions', {});
    expect(anonymous.body.data).toMatchObject({ connected: false, canTrade: false });
    const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${trader.token}` } });
    const body = (await me.json()) as { ok: boolean; data: Record<string, unknown> };
    expect(me.status).toBe(200);
    expect(body.data).toMatchObject({
      wallet: trader.wallet,
      mode: 'paper',
      canTrade: true,
      guardrails: expect.objectContaining({ requireConfirmation: false }),
    });
    const noToken = await fetch(`${base}/api/v1/me`);
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('get_intent_status reports an executed intent and 404 for an unknown one', async () => {
    const res = await callTool(base, 'get_intent_status', { intentId: openIntentId });
    expect(res.body.data).toMatchObject({ status: 'executed', pending: false, kind: 'open', wallet: trader.wallet });
    expect(res.body.data!['positionIds']).toHaveLength(1);
    const other = await callTool(base, 'get_intent_status', { intentId: openIntentId, wallet: `0x${'1'.repeat(40)}` });
    expect(other.status).toBe(404);
    const unknown = await callTool(base, 'get_intent_status', { intentId: `0x${'ab'.repeat(32)}` });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error!.code).toBe('not_found');
  });

  it('answers 404 tool_not_found for an unknown tool on both families and 400 for unknown parameters', async () => {
    for (const o of [{}, { token: trader.token }]) {
      const res = await callTool(base, 'get_everything', {}, o);
      expect(res.status).toBe(404);
      expect(res.body.error!.code).toBe('tool_not_found');
      expect(res.body.error!.message).toContain('get_markets');
    }
    const unknown = await callTool(base, 'get_markets', { verbose: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error!.code).toBe('unknown_parameter');
  });

  it('accepts a POST without a body and refuses non-JSON bodies (415), form-encoded ones included, on both families', async () => {
    const empty = await fetch(`${base}/api/v1/tools/get_markets`, { method: 'POST' });
    expect(empty.status).toBe(200);
    for (const [contentType, o] of [
      ['text/plain', {}],
      ['application/x-www-form-urlencoded', {}],
      ['application/x-www-form-urlencoded', { token: trader.token }],
      ['multipart/form-data; boundary=x', { token: trader.token }],
    ] as const) {
      const refused = await callTool(base, 'calculate_position', undefined, {
        ...o,
        rawBody: 'market=BTC&side=long&marginUsd=10&leverage=2',
        contentType,
      });
      expect(refused.status).toBe(415);
      expect(refused.body.error).toEqual({
        code: 'unsupported_media_type',
        message: expect.stringContaining('Content-Type: application/json'),
      });
    }
    const broken = await callTool(base, 'get_markets', undefined, { rawBody: '{"market":' });
    expect(broken.status).toBe(400);
    expect(broken.body.ok).toBe(false);
  });

  it('caches public results for 5 seconds in Redis, shared by replicas, and never caches /me', async () => {
    const args = { market: 'BTC', side: 'long', marginUsd: 77, leverage: 200 };
    const first = await callTool(base, 'calculate_position', args);
    const second = await callTool(
      base,
      'calculate_position',
      { leverage: 200, marginUsd: 77, side: 'long', market: 'BTC' },
      { method: 'GET' },
    );
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('cache-control')).toMatch(/^public, max-age=[1-5]$/);
    expect(second.body).toEqual(first.body);
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${stack.redisPrefix}:toolcache:calculate_position:*`);
    const ttl = await redis.pttl(keys[0]!);
    redis.disconnect();
    expect(keys.length).toBeGreaterThanOrEqual(1);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5000);
    const me = await callTool(base, 'calculate_position', args, { token: trader.token });
    expect(me.headers.get('cache-control')).toBe('private, no-store');
    expect(me.headers.get('x-cache')).toBeNull();
    const third = await waitFor(
      'the cache entry to expire',
      async () => {
        const res = await callTool(base, 'calculate_position', args);
        return res.headers.get('x-cache') === 'MISS' ? res : undefined;
      },
      10000,
    );
    expect(third.status).toBe(200);
  });

  it('opens CORS on public endpoints, with preflight', async () => {
    const preflight = await fetch(`${base}/api/v1/tools/get_markets`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const get = await fetch(`${base}/api/v1/tools/get_markets`, { headers: { origin: 'https://app.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    const spec = await fetch(`${base}/openapi.json`);
    expect(spec.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('links a rendered candlestick chart from get_price_chart', async () => {
    const res = await callTool(base, 'get_price_chart', { market: 'ETH', interval: '1h', count: 24 });
    const url = res.body.data!['chartUrl'] as string;
    expect(url).toBe(`${base}/charts/ETH?interval=1h&count=24`);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<svg');
    expect(html.match(/<g class="(up|down)">/g)).toHaveLength(24);
    const bad = await fetch(`${base}/charts/DOGE`);
    expect(bad.status).toBe(400);
  });

  it('serves the OpenAPI document at both paths and a browsable reference at /docs', async () => {
    const a = await (await fetch(`${base}/openapi.json`)).json();
    const b = await (await fetch(`${base}/.well-known/openapi.json`)).json();
    expect(a).toEqual(b);
    expect(a).toMatchObject({ openapi: '3.1.0', info: { version: '0.1.0' }, servers: [{ url: base }] });
    const SwaggerParser = (await import('@apidevtools/swagger-parser')).default;
    await expect(SwaggerParser.validate(a as never)).resolves.toBeDefined();
    const docs = await fetch(`${base}/docs`);
    const html = await docs.text();
    expect(docs.status).toBe(200);
    expect(html).toContain('/openapi.json');
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg|jsdelivr)/);
    const script = html.match(/<script src="([^"]+)"/)![1]!;
    const asset = await fetch(`${base}${script}`);
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(100_000);
  });
});
