import { formatHalfTicks, formatScaled, midHalfTicks, quoteAround } from './quote';

describe('quotes', () => {
  it('quotes 1 or 2 ticks wide with the mid at the price rounded to half a tick', () => {
    expect(quoteAround(100000, 1)).toEqual({ bid: 999_999, ask: 1_000_001 });
    expect(quoteAround(100000.05, 1)).toEqual({ bid: 1_000_000, ask: 1_000_001 });
    expect(quoteAround(3500.123, 2)).toEqual({ bid: 350_012, ask: 350_013 });
    for (const mid of [99_871.234, 3_412.5551, 0.00001]) {
      const q = quoteAround(mid, 1);
      expect(q.ask - q.bid).toBeGreaterThanOrEqual(1);
      expect(q.ask - q.bid).toBeLessThanOrEqual(2);
      expect(q.bid).toBeGreaterThan(0);
    }
  });

  it('formats integers at a scale without float arithmetic', () => {
    expect(formatScaled(1_000_001, 1)).toBe('100000.1');
    expect(formatScaled(5, 2)).toBe('0.05');
    expect(formatScaled(-5, 2)).toBe('-0.05');
    expect(formatScaled(7, 0)).toBe('7');
    expect(() => formatScaled(0.5, 1)).toThrow(RangeError);
  });

  it('formats a mid with an extra digit only between ticks', () => {
    expect(formatHalfTicks(midHalfTicks({ bid: 999_999, ask: 1_000_001 }), 1)).toBe('100000.0');
    expect(formatHalfTicks(midHalfTicks({ bid: 1_000_000, ask: 1_000_001 }), 1)).toBe('100000.05');
    expect(formatHalfTicks(midHalfTicks({ bid: 350_012, ask: 350_013 }), 2)).toBe('3500.125');
  });
});
