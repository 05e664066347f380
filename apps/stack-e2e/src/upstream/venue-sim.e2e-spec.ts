import { startTestStack, type TestStack } from '@paper/dev-stack';
// The e2e suite drives the simulator with the production client, as the apps do.
import {
  CANDLE_INTERVALS,
  HyperliquidInfoClient,
  type HyperliquidInfoClientOptions,
  UpstreamError,
} from '@paper/upstream';

/** A decimal string as an integer at `decimals` places (exact, no floats). */
const units = (value: string, decimals: number): bigint => {
  const [whole, frac = ''] = value.split('.');
  return BigInt(`${whole}${frac.padEnd(decimals, '0')}`);
};

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms (last value ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    return error as UpstreamError;
  }
  throw new Error('expected the call to fail');
}

describe('venue-sim driven by the upstream client', () => {
  let stack: TestStack;
  let simUrl: string;
  let client: HyperliquidInfoClient;

  const control = async (path: string, body?: unknown) => {
    const res = await fetch(`${simUrl}/control/${path}`, {
      method: body === undefined && path === 'state' ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as {
      time: number;
      frozen: boolean;
      heldRequests: number;
      markets: Record<string, { mid: string }>;
    };
  };
  const makeClient = (options: Partial<HyperliquidInfoClientOptions> = {}) =>
    new HyperliquidInfoClient({ baseUrl: simUrl, timeoutMs: 2000, retries: 2, backoffMs: 10, ...options });
  const postInfo = (body: unknown) =>
    fetch(`${simUrl}/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    stack = await startTestStack({
      apps: ['venue-sim'],
      migrate: false,
      env: { SIM_WEIGHT_PER_MINUTE: '600', SIM_TICK_MS: '200', SIM_HANG_MS: '5000' },
    });
    simUrl = stack.appUrls['venue-sim']!;
  });

  beforeEach(async () => {
    await control('reset', {});
    client = makeClient();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('serves allMids and an l2Book whose best bid and ask average to the mid', async () => {
    await control('freeze', { frozen: true });
    const mids = await client.allMids();
    expect(Object.keys(mids).sort()).toEqual(['BTC', 'ETH']);
    expect(Number(mids['BTC'])).toBeGreaterThan(90_000);
    expect(Number(mids['ETH'])).toBeGreaterThan(3_000);
    for (const [coin, decimals] of [
      ['BTC', 1],
      ['ETH', 2],
    ] as const) {
      const book = await client.l2Book(coin);
      expect(book.coin).toBe(coin);
      expect(Math.abs(book.time - Date.now())).toBeLessThan(5_000);
      const [bids, asks] = book.levels;
      expect(bids).toHaveLength(20);
      expect(asks).toHaveLength(20);
      const bidPx = bids.map((l) => units(l.px, decimals));
      const askPx = asks.map((l) => units(l.px, decimals));
      expect(bidPx.every((p, i) => i === 0 || p < bidPx[i - 1]!)).toBe(true);
      expect(askPx.every((p, i) => i === 0 || p > askPx[i - 1]!)).toBe(true);
      expect(askPx[0]! - bidPx[0]!).toBeGreaterThanOrEqual(1n);
      expect(askPx[0]! - bidPx[0]!).toBeLessThanOrEqual(2n);
      expect(units(mids[coin]!, decimals + 1) * 2n).toBe((bidPx[0]! + askPx[0]!) * 10n);
      expect(bids[0]).toEqual({
        px: expect.stringMatching(/^\d+\.\d+$/),
        sz: expect.stringMatching(/^\d+\.\d+$/),
        n: expect.any(Number),
      });
    }
    const quote = await client.bestBidAsk('ETH');
    expect(units(quote.bid, 2)).toBeLessThan(units(quote.ask, 2));
  });

  it('serves candles for every interval, at most the latest 5000, ending at the current mid', async () => {
    await control('freeze', { frozen: true });
    const now = Date.now();
    const before = performance.now();
    const minutes = await client.candleSnapshot({ coin: 'BTC', interval: '1m', startTime: 0 });
    expect(minutes).toHaveLength(5000);
    expect(minutes.every((c, i) => i === 0 || c.t - minutes[i - 1]!.t === 60_000)).toBe(true);
    expect(minutes[4999]!.t).toBeLessThanOrEqual(now);
    expect(minutes[4999]!.t).toBeGreaterThan(now - 120_000);
    expect(minutes[0]).toMatchObject({ s: 'BTC', i: '1m', T: minutes[0]!.t + 59_999 });
    const mids = await client.allMids();
    expect(minutes[4999]!.c).toBe(mids['BTC']);
    // 20 + floor(5000 / 60) weight spent on the candles, 2 on allMids, less what refilled meanwhile (the
    // budget refills its capacity once a minute; a loaded machine takes longer and refills more).
    const refilled = ((performance.now() - before) * client.weightCapacity) / 60_000;
    const spent = client.weightCapacity - client.remainingWeight();
    expect(spent).toBeGreaterThan(105 - refilled - 1);
    expect(spent).toBeLessThanOrEqual(105);

    for (const interval of CANDLE_INTERVALS) {
      const candles = await makeClient().candleSnapshot({
        coin: 'ETH',
        interval,
        startTime: now - 2 * 86_400_000,
        endTime: now,
      });
      expect(candles.length).toBeGreaterThan(0);
      const last = candles[candles.length - 1]!;
      expect(last.i).toBe(interval);
      expect(last.c).toBe(mids['ETH']);
      expect(Number(last.h)).toBeGreaterThanOrEqual(Math.max(Number(last.o), Number(last.c)));
      expect(Number(last.l)).toBeLessThanOrEqual(Math.min(Number(last.o), Number(last.c)));
      expect(Number(last.v)).toBeGreaterThan(0);
    }
    const [meta, ctxs] = await client.metaAndAssetCtxs();
    expect(meta.universe.map((a) => a.name)).toEqual(['BTC', 'ETH']);
    expect(ctxs[0]!.midPx).toBe(mids['BTC']);
    expect(ctxs[1]!.markPx).toBe(mids['ETH']);
  });

  it('reflects a price set through the control API in mids, book and candles', async () => {
    await control('freeze', { frozen: true });
    await control('price', { coin: 'BTC', price: '65432.1' });
    expect((await client.allMids())['BTC']).toBe('65432.1');
    const quote = await client.bestBidAsk('BTC');
    expect(units(quote.bid, 1)).toBeLessThan(654_321n);
    expect(units(quote.ask, 1)).toBeGreaterThan(654_321n);
    const candles = await client.candleSnapshot({ coin: 'BTC', interval: '1m', startTime: Date.now() - 60_000 });
    expect(candles[candles.length - 1]!.c).toBe('65432.1');
    expect(Number(candles[candles.length - 1]!.l)).toBeLessThanOrEqual(65_432.1);
  });

  it('moves the price along a path, holds it while frozen and walks again when unfrozen', async () => {
    await control('freeze', { frozen: true });
    await control('path', { coin: 'ETH', to: 3600, durationMs: 600, steps: 3 });
    await until(
      () => client.allMids(),
      (m) => m['ETH'] === '3600.00',
    );
    const frozenAt = (await control('state')).time;
    const later = await until(
      () => control('state'),
      (s) => s.time - frozenAt >= 1_000,
    );
    expect(later.markets['ETH']!.mid).toBe('3600.00');
    await control('freeze', { frozen: false });
    await until(
      () => client.allMids(),
      (m) => m['ETH'] !== '3600.00',
    );
  });

  it('answers injected 5xx failures: the client retries, then reports unavailable', async () => {
    await control('fail', { mode: 'error', status: 503, count: 2 });
    await expect(client.allMids()).resolves.toHaveProperty('BTC');
    await control('fail', { mode: 'error', status: 502 });
    const error = await failure(client.allMids());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.kind).toBe('unavailable');
    expect(error.upstreamStatus).toBe(502);
  });

  it('holds requests in timeout mode: the client reports timeout and the held requests are released', async () => {
    await control('fail', { mode: 'timeout' });
    const error = await failure(makeClient({ timeoutMs: 300, retries: 1 }).allMids());
    expect(error.kind).toBe('timeout');
    await until(
      () => control('state'),
      (s) => s.heldRequests === 0,
    );
    await control('fail', { mode: 'none' });
    await expect(client.allMids()).resolves.toHaveProperty('ETH');
  });

  it('answers 429 with Retry-After once the per-IP weight budget is spent', async () => {
    const body = { type: 'candleSnapshot', req: { coin: 'BTC', interval: '1m', startTime: 0 } };
    // At once, so that the budget cannot refill between them however slow the machine: 16 x 103 > 1200.
    const answers = await Promise.all(Array.from({ length: 16 }, () => postInfo(body)));
    const res = answers.find((a) => a.status === 429);
    expect(res?.status).toBe(429);
    if (!res) return;
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await res.json()).toMatchObject({ code: 'rate_limited' });
    // The production client sees the venue's 429. A candle request the venue takes overdraws the budget by
    // its per-candle weight (83), so the allMids sent right after it is refused even if a slow machine
    // refills a few seconds' worth meanwhile; a refused candle request is retried after its Retry-After.
    let error: UpstreamError | undefined;
    for (let attempt = 0; attempt < 8 && error?.kind !== 'rate_limited'; attempt += 1) {
      const candles = await postInfo(body);
      await candles.arrayBuffer();
      if (candles.status === 429) {
        await new Promise((r) => setTimeout(r, Number(candles.headers.get('retry-after')) * 1000));
        continue;
      }
      error = await makeClient({ retries: 0 })
        .allMids()
        .then(
          () => undefined,
          (e: unknown) => e as UpstreamError,
        );
    }
    expect(error?.kind).toBe('rate_limited');
    expect(error?.upstreamStatus).toBe(429);
  });

  it('refuses unknown request types and bad bodies with 400 and a plain error', async () => {
    for (const body of [
      { type: 'clearinghouseState' },
      { type: 'candleSnapshot', req: { coin: 'BTC', interval: '7m', startTime: 0 } },
      'nope',
    ]) {
      const res = await postInfo(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    const unknownCoin = await postInfo({ type: 'l2Book', coin: 'DOGE' });
    expect(await unknownCoin.json()).toBeNull();
    expect((await failure(client.l2Book('DOGE'))).kind).toBe('bad_response');
  });
});
