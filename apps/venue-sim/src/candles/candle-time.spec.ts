import { CANDLE_INTERVALS } from '@paper/upstream';
import { candleOpen, candleOpens, nextCandleOpen, previousCandleOpen } from './candle-time';

const at = (iso: string) => Date.parse(iso);

describe('candle times', () => {
  it('aligns fixed intervals to the epoch, weeks to Monday and months to the calendar', () => {
    expect(candleOpen('1h', at('2025-03-05T10:42:13Z'))).toBe(at('2025-03-05T10:00:00Z'));
    expect(candleOpen('15m', at('2025-03-05T10:42:13Z'))).toBe(at('2025-03-05T10:30:00Z'));
    expect(candleOpen('1w', at('2025-03-05T10:42:13Z'))).toBe(at('2025-03-03T00:00:00Z'));
    expect(candleOpen('1M', at('2025-03-05T10:42:13Z'))).toBe(at('2025-03-01T00:00:00Z'));
    expect(nextCandleOpen('1M', at('2025-01-01T00:00:00Z'))).toBe(at('2025-02-01T00:00:00Z'));
    expect(previousCandleOpen('1M', at('2025-01-01T00:00:00Z'))).toBe(at('2024-12-01T00:00:00Z'));
  });

  it('steps forward and back consistently for every interval', () => {
    const t = at('2025-06-17T13:37:00Z');
    for (const interval of CANDLE_INTERVALS) {
      const open = candleOpen(interval, t);
      expect(open).toBeLessThanOrEqual(t);
      expect(nextCandleOpen(interval, open)).toBeGreaterThan(t);
      expect(previousCandleOpen(interval, nextCandleOpen(interval, open))).toBe(open);
    }
  });

  it('lists the candles of a range, latest first kept under the limit, oldest first', () => {
    const opens = candleOpens('1h', at('2025-01-01T00:30:00Z'), at('2025-01-01T03:10:00Z'), 0, 5000);
    expect(opens).toEqual([0, 1, 2, 3].map((h) => at('2025-01-01T00:00:00Z') + h * 3_600_000));
    const limited = candleOpens('1m', 0, at('2025-01-01T00:00:00Z'), 0, 5000);
    expect(limited).toHaveLength(5000);
    expect(limited[4999]).toBe(at('2025-01-01T00:00:00Z'));
    expect(
      candleOpens('1h', at('2025-01-01T00:00:00Z'), at('2025-01-01T05:00:00Z'), at('2025-01-01T04:10:00Z'), 5000),
    ).toHaveLength(2);
    expect(candleOpens('1h', 10, 5, 0, 5000)).toEqual([]);
  });
});
