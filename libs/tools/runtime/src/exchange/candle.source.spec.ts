import { CANDLE_INTERVALS, type CandleInterval, intervalMs } from '@paper/upstream';
import { candleWindowStart } from './candle.source';

const DAY = 86_400_000;
/** Weekly candles open on Mondays 00:00 UTC. */
const WEEK_ANCHOR = 4 * DAY;

/**
 * How many candles open at or after `start` and at or before `now`, counted independently of the code under
 * test: calendar months for `1M`, Monday-anchored weeks for `1w`, epoch-anchored lengths otherwise.
 */
function candlesOpeningIn(interval: CandleInterval, start: number, now: number): number {
  if (interval === '1M') {
    const month = (ms: number) => new Date(ms).getUTCFullYear() * 12 + new Date(ms).getUTCMonth();
    const first = new Date(start).getUTCDate() === 1 && start % DAY === 0 ? month(start) : month(start) + 1;
    return month(now) - first + 1;
  }
  const length = intervalMs(interval);
  const anchor = interval === '1w' ? WEEK_ANCHOR : 0;
  return Math.floor((now - anchor) / length) - Math.ceil((start - anchor) / length) + 1;
}

const NOWS = [
  '2026-03-15T12:00:00Z',
  '2026-03-01T00:00:00Z',
  '2026-02-28T23:59:59Z',
  '2024-02-29T08:00:00Z',
  '2026-12-31T23:59:59Z',
].map(Date.parse);

describe('candleWindowStart', () => {
  it.each(['1M', '1w', '3d'] as const)(
    'covers 500 %s candles before the current one, at any time of the year',
    (interval) => {
      const short = NOWS.filter((now) => candlesOpeningIn(interval, candleWindowStart(interval, 500, now), now) < 501);
      expect(short.map((now) => new Date(now).toISOString())).toEqual([]);
    },
  );

  it('starts 1M windows on the first day of the month `count` months back (months are not 30 days)', () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    expect(new Date(candleWindowStart('1M', 500, now)).toISOString()).toBe('1984-07-01T00:00:00.000Z');
    expect(new Date(candleWindowStart('1M', 10, now)).toISOString()).toBe('2025-05-01T00:00:00.000Z');
    // 500 months are about 15,218 days: a window of 501 nominal 30-day months holds only about 494.
    expect(candlesOpeningIn('1M', now - 501 * 30 * DAY, now)).toBeLessThan(500);
  });

  it.each([...CANDLE_INTERVALS])('covers every count from 10 to 500 of %s candles', (interval) => {
    const now = Date.parse('2026-03-31T23:00:00Z');
    for (const count of [10, 11, 96, 499, 500]) {
      expect(candlesOpeningIn(interval, candleWindowStart(interval, count, now), now)).toBeGreaterThanOrEqual(
        count + 1,
      );
    }
  });
});
