import { MARKETS } from '../markets/market-spec';
import { aggregateBook, aggregationStep } from './book-aggregation';
import { l2BookView } from './info-views';

const [BTC, ETH] = MARKETS as [(typeof MARKETS)[number], (typeof MARKETS)[number]];

describe('l2Book precision (nSigFigs, mantissa)', () => {
  it('steps by significant figures of the price', () => {
    // BTC at 100,000.0 (ticks of 0.1): 5 figures = steps of 10, 2 figures = 10,000; mantissa 5 = steps of 50.
    expect(aggregationStep(1_000_000, 1, { nSigFigs: 5 })).toBe(100);
    expect(aggregationStep(1_000_000, 1, { nSigFigs: 2 })).toBe(100_000);
    expect(aggregationStep(1_000_000, 1, { nSigFigs: 5, mantissa: 5 })).toBe(500);
    // ETH at 3,500.00 (ticks of 0.01): 5 figures = steps of 0.1, mantissa 2 = 0.2.
    expect(aggregationStep(350_000, 2, { nSigFigs: 5 })).toBe(10);
    expect(aggregationStep(350_000, 2, { nSigFigs: 5, mantissa: 2 })).toBe(20);
    expect(aggregationStep(350_000, 2, {})).toBe(1);
  });

  it.each([
    [BTC, 999_995, { nSigFigs: 5 }],
    [BTC, 999_995, { nSigFigs: 2 }],
    [ETH, 349_999, { nSigFigs: 5, mantissa: 5 }],
    [ETH, 349_999, { nSigFigs: 3 }],
  ] as const)('keeps levels on the step, bids below asks, best first (%#)', (market, bid, precision) => {
    const q = { bid, ask: bid + 1 };
    const book = aggregateBook(l2BookView(market, q, 42, 1_000, 1_000), market, q, precision, 42, 1);
    const step = aggregationStep(q.ask, market.priceDecimals, precision) / 10 ** market.priceDecimals;
    const [bids, asks] = book.levels.map((side) => side.map((l) => Number(l.px)));
    expect(bids!.length).toBe(20);
    expect(asks!.length).toBe(20);
    for (const px of [...bids!, ...asks!]) expect(Math.abs(px / step - Math.round(px / step))).toBeLessThan(1e-6);
    expect(bids![0]!).toBeLessThan(asks![0]!);
    expect([...bids!].sort((a, b) => b - a)).toEqual(bids);
    expect([...asks!].sort((a, b) => a - b)).toEqual(asks);
  });
});
