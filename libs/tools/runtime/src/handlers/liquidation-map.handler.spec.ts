import { bucketize } from './liquidation-map.handler';

describe('bucketize (liquidation map)', () => {
  const mark = 1_000_000n; // BTC 100,000.0

  it('puts bust prices into 0.5% buckets within 10% of the mark', () => {
    const data = bucketize('BTC', mark, [
      { side: 'long', bust: 990_100n, notional: 20_000_000_000n },
      { side: 'long', bust: 990_200n, notional: 10_000_000_000n },
      { side: 'short', bust: 1_050_000n, notional: 5_000_000_000n },
      { side: 'short', bust: 2_000_000n, notional: 1_000_000_000n },
    ]);
    expect(data.buckets).toHaveLength(40);
    expect(data.bucketPercent).toBe(0.5);
    expect(data.buckets[0]!.priceFrom).toBe(90000);
    const longBucket = data.buckets.find((b) => b.longs.count > 0)!;
    expect(longBucket).toMatchObject({ priceFrom: 99000, priceTo: 99500, longs: { notionalUsd: 30000, count: 2 } });
    expect(data.totals).toEqual({ longs: { notionalUsd: 30000, count: 2 }, shorts: { notionalUsd: 6000, count: 2 } });
    expect(data.outsideRange.shorts).toEqual({ notionalUsd: 1000, count: 1 });
    expect(data.largestClusters[0]).toMatchObject({
      side: 'long',
      notionalUsd: 30000,
      count: 2,
      distancePercent: -0.75,
    });
    expect(data.largestClusters[1]).toMatchObject({ side: 'short', notionalUsd: 5000, priceFrom: 105000 });
  });

  it('reports no clusters without positions', () => {
    const data = bucketize('ETH', 350_000n, []);
    expect(data.largestClusters).toEqual([]);
    expect(data.totals.longs.count).toBe(0);
  });
});
