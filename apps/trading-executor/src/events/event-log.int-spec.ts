import { EXCHANGE_EVENT_DATA, type ExchangeEvent, exchangeEventSchema } from '@paper/contracts';
import { usdc } from '@paper/exchange';
import { appendEvents, eventLogBounds, exchangeEvent, pruneEvents, readEvents } from '@paper/exchange-data';
import { ExchangeTestKit } from '../testing/exchange-test-kit';

describe('the event log, written by the transactions it records (PostgreSQL + Redis)', () => {
  let kit: ExchangeTestKit;

  beforeAll(async () => {
    kit = await ExchangeTestKit.start();
  });

  afterAll(async () => {
    await kit?.stop();
  });

  beforeEach(async () => {
    await kit.setPrice('BTC', '100000');
    await kit.setPrice('ETH', '3500');
  });

  const eventsOf = async (wallet: string): Promise<ExchangeEvent[]> => {
    const events = await readEvents(kit.db, { after: '0', limit: 500, wallet });
    // Every logged event is in the contract's shape, its data in the shape of its type.
    for (const e of events) {
      expect(exchangeEventSchema.parse(e)).toEqual(e);
      EXCHANGE_EVENT_DATA[e.type].parse(e.data);
    }
    return events;
  };

  it('records a trader’s deposit, accepted and executed intents, the opened and the closed position, with the tools’ figures', async () => {
    const t = await kit.trader(1000);
    const open = await kit.open(t, 'BTC', 'long', 100, 100);
    const opened = await kit.intents.execute(open);
    const positionId = opened.opened!.positionId;
    await kit.setPrice('BTC', '100400');
    const close = await kit.close(t, [positionId]);
    const closed = await kit.intents.execute(close);
    expect(closed.status).toBe('executed');

    const events = await eventsOf(t.wallet);
    expect(events.map((e) => e.type)).toEqual([
      'deposit.credited',
      'intent.accepted',
      'intent.executed',
      'position.opened',
      'intent.accepted',
      'intent.executed',
      'position.closed',
    ]);
    const ids = events.map((e) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    expect(events[0]!.data).toEqual({ amountUsd: 1001, feeUsd: 1, txHash: null });
    expect(events[1]!.data).toEqual({ intentId: open.intentId.toLowerCase(), kind: 'open' });
    expect(events[3]).toMatchObject({
      wallet: t.wallet,
      market: 'BTC',
      data: {
        positionId,
        market: 'BTC',
        side: 'long',
        leverage: 100,
        marginUsd: 100,
        notionalUsd: 10000,
        entryPrice: 100000,
        intentId: open.intentId.toLowerCase(),
      },
    });
    const settled = closed.closed![0]!;
    expect(events[6]).toMatchObject({
      market: 'BTC',
      data: {
        positionId,
        exitPrice: 100400,
        pnlUsd: Number(settled.pnlUsd),
        feeUsd: Number(settled.feeUsd),
        paidUsd: Number(settled.paidUsd),
        queuedUsd: Number(settled.queuedUsd),
        intentId: close.intentId.toLowerCase(),
      },
    });
  });

  it('records refusals, liquidations by the exchange and owner actions', async () => {
    const t = await kit.trader(100);
    const tooBig = await kit.open(t, 'ETH', 'short', 500, 100);
    expect((await kit.intents.execute(tooBig)).status).toBe('refused');
    const risky = await kit.intents.execute(await kit.open(t, 'ETH', 'long', 50, 200));
    expect(risky.status).toBe('executed');
    const mark = await kit.setPrice('ETH', '3000');
    expect(await kit.liquidations.liquidateAt('ETH', mark)).toBeGreaterThanOrEqual(1);
    expect(
      (await kit.ownerActions.execute(await kit.ownerAction(t, ['withdraw', t.wallet, { amountMicro: usdc(10) }])))
        .status,
    ).toBe('executed');

    const events = await eventsOf(t.wallet);
    expect(events.find((e) => e.type === 'intent.refused')?.data).toMatchObject({
      intentId: tooBig.intentId.toLowerCase(),
      kind: 'open',
      reason: 'insufficient_balance',
    });
    expect(events.find((e) => e.type === 'position.liquidated')).toMatchObject({
      market: 'ETH',
      data: { positionId: risky.opened!.positionId, pnlUsd: -50, paidUsd: 0, intentId: null, exitPrice: 3000 },
    });
    expect(events.filter((e) => e.type === 'withdrawal.completed').map((e) => e.data)).toEqual([
      { amountUsd: 10, to: t.wallet, intentId: expect.any(String) },
    ]);
  });

  it('records market status changes, whoever changes the row', async () => {
    const before = await eventLogBounds(kit.db);
    await kit.db.query(`UPDATE exchange.markets SET status = 'close-only' WHERE market = 'ETH'`);
    await kit.db.query(`UPDATE exchange.markets SET status = 'open' WHERE market = 'ETH'`);
    const events = await readEvents(kit.db, { after: before.newest, limit: 10, types: ['market.status'] });
    expect(events.map((e) => [e.market, e.wallet, e.data])).toEqual([
      ['ETH', null, { market: 'ETH', status: 'close-only', previous: 'open' }],
      ['ETH', null, { market: 'ETH', status: 'open', previous: 'close-only' }],
    ]);
  });

  it('a reader paging by cursor while writers commit concurrently sees every event exactly once, in order', async () => {
    const start = (await eventLogBounds(kit.db)).newest;
    const writers = Array.from({ length: 8 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 25; i += 1) {
          await kit.db.transaction(async (m) => {
            await appendEvents(m, [
              exchangeEvent(
                'market.status',
                { market: 'BTC', status: 'open', previous: 'open' },
                { market: 'BTC', wallet: `0x${String(w).padStart(40, '0')}` },
              ),
            ]);
          });
        }
      })(),
    );
    const seen: string[] = [];
    let cursor = start;
    let writing = true;
    const done = Promise.all(writers).then(() => (writing = false));
    while (writing || seen.length < 200) {
      const page = await readEvents(kit.db, { after: cursor, limit: 50, types: ['market.status'] });
      for (const e of page) seen.push(e.id);
      if (page.length > 0) cursor = page[page.length - 1]!.id;
      if (!writing && page.length === 0) break;
    }
    await done;
    expect(seen).toHaveLength(200);
    expect(new Set(seen).size).toBe(200);
  });

  it('prunes by age and reports the oldest retained cursor', async () => {
    const { newest } = await eventLogBounds(kit.db);
    expect(await pruneEvents(kit.db, new Date(Date.now() + 60_000))).toBeGreaterThan(0);
    expect(await readEvents(kit.db, { after: '0', limit: 10 })).toEqual([]);
    await kit.db.transaction((m) =>
      appendEvents(m, [
        exchangeEvent('market.status', { market: 'ETH', status: 'open', previous: 'open' }, { market: 'ETH' }),
      ]),
    );
    const after = await eventLogBounds(kit.db);
    expect(BigInt(after.oldest)).toBeGreaterThan(BigInt(newest));
  });
});
