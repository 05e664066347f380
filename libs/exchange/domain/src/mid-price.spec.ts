import fc from 'fast-check';
import { midPrice, midPriceFromDecimals } from './mid-price';

describe('midPrice', () => {
  it('floors the average at the price scale', () => {
    expect(midPrice(650_000n, 650_001n)).toBe(650_000n);
    expect(midPrice(650_000n, 650_002n)).toBe(650_001n);
    // BTC x10: bid 65000.0, ask 65000.15 -> 650001 (extra digit truncated) -> mid floor(1300001 / 2) = 650000
    expect(midPriceFromDecimals('65000.0', '65000.15', 1)).toBe(650_000n);
    // ETH x100: 3500.01 / 3500.04 -> floor(700005 / 2) = 350002
    expect(midPriceFromDecimals('3500.01', '3500.04', 2)).toBe(350_002n);
    expect(() => midPrice(-1n, 1n)).toThrow(RangeError);
  });

  it('property: bid <= mid <= ask and 2 * mid is within one tick of bid + ask', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 10n ** 6n }), (bid, spread) => {
        const ask = bid + spread;
        const mid = midPrice(bid, ask);
        expect(mid).toBeGreaterThanOrEqual(bid);
        expect(mid).toBeLessThanOrEqual(ask);
        expect(bid + ask - 2n * mid).toBeGreaterThanOrEqual(0n);
        expect(bid + ask - 2n * mid).toBeLessThanOrEqual(1n);
      }),
    );
  });
});
