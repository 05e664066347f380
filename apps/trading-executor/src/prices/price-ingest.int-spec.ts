import { priceTickChannel } from '@paper/contracts';
import { UpstreamError } from '@paper/upstream';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { tradingExecutorConfigSchema } from '../config/trading-executor.config';
import { PriceBook } from './price-book.service';
import { PriceIngestService } from './price-ingest.service';

/** A venue whose quotes the test sets; `fail` makes every call throw like an unreachable venue. */
function venue() {
  const state = {
    BTC: { bid: '100000.1', ask: '100000.4' },
    ETH: { bid: '3500.10', ask: '3500.30' },
    fail: false,
    calls: 0,
  };
  return {
    state,
    bestBidAsk: async (coin: string) => {
      state.calls += 1;
      if (state.fail) throw new UpstreamError('timeout', 'no answer');
      const q = state[coin as 'BTC' | 'ETH'];
      return { coin, bid: q.bid, ask: q.ask, time: Date.now() };
    },
  };
}

describe('price ingest (Redis)', () => {
  const config = tradingExecutorConfigSchema.parse({
    REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
    LEADER_LEASE_MS: '1000',
    PRICE_STALE_MS: '2000',
  });
  const redis = new Redis(config.REDIS_URL);
  const subscriber = new Redis(config.REDIS_URL);
  const book = new PriceBook(redis, config);

  afterAll(async () => {
    const keys = await redis.keys(`${config.REDIS_PREFIX}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await subscriber.quit();
  });

  it('one replica ingests, writes the hash and publishes ticks; the other stands by and takes over when it stops', async () => {
    const ticks: string[] = [];
    await subscriber.subscribe(priceTickChannel(config.REDIS_PREFIX));
    subscriber.on('message', (_c, m) => ticks.push(m));
    const venueA = venue();
    const venueB = venue();
    const a = new PriceIngestService(config, redis, venueA, book);
    const b = new PriceIngestService(config, redis, venueB, book);
    await a.poll();
    await b.poll();
    expect(a.isIngesting).toBe(true);
    expect(b.isIngesting).toBe(false);
    expect(venueB.state.calls).toBe(0);
    expect(await book.latest('BTC')).toMatchObject({ market: 'BTC', bid: '1000001', ask: '1000004', mid: '1000002' });
    expect((await book.fresh('ETH'))?.mid).toBe(350020n);
    for (let i = 0; i < 50 && ticks.length < 2; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(ticks.map((t) => JSON.parse(t).market).sort()).toEqual(['BTC', 'ETH']);

    // The venue fails: the last price stays, and turns stale (unusable) after PRICE_STALE_MS.
    venueA.state.fail = true;
    await a.poll();
    expect((await book.latest('BTC'))?.mid).toBe('1000002');
    expect(await book.fresh('BTC', Date.now() + 3000)).toBeNull();

    // Replica A stops (lease released): B takes over on its next poll.
    await a.beforeApplicationShutdown();
    venueB.state.BTC = { bid: '101000', ask: '101000.2' };
    await b.poll();
    expect(b.isIngesting).toBe(true);
    expect((await book.latest('BTC'))?.mid).toBe('1010001');
    await b.beforeApplicationShutdown();
  });
});
