import { MARKETS } from '../markets/market-spec';
import { MarketRuntime } from '../prices/market-runtime';
import { midHalfTicks } from '../prices/quote';
import { buildCandles, candleValues } from './candle-history';

const START = Date.parse('2025-06-01T12:00:30Z');
const btc = MARKETS[0]!;
const runtime = (seed = 42) => new MarketRuntime(btc, { seed, tickMs: 1000, startedAt: START });

describe('candle history', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const a = buildCandles(runtime().candleSource(), '1h', START - 86_400_000, START, START);
    const b = buildCandles(runtime().candleSource(), '1h', START - 86_400_000, START, START);
    const c = buildCandles(runtime(7).candleSource(), '1h', START - 86_400_000, START, START);
    expect(a).toEqual(b);
    expect(a.map((x) => x.c)).not.toEqual(c.map((x) => x.c));
  });

  it('returns well-formed candles: high >= open, close >= low, decimal strings, plausible volume', () => {
    const candles = buildCandles(runtime().candleSource(), '4h', 0, START, START);
    expect(candles).toHaveLength(5000);
    const problems = candles.flatMap((k, i) => {
      const [o, c, h, l] = [k.o, k.c, k.h, k.l].map(Number) as [number, number, number, number];
      const complete = i < candles.length - 1;
      const ok =
        h >= Math.max(o, c) &&
        l <= Math.min(o, c) &&
        /^\d+\.\d{5}$/.test(k.v) &&
        (!complete || Number(k.v) >= 240 * 14 * 0.6 - 1) &&
        k.T === k.t + 4 * 3_600_000 - 1 &&
        l > 10_000 &&
        h < 1_000_000;
      return ok ? [] : [k];
    });
    expect(problems).toEqual([]);
  });

  it('stops at the history start and never returns future candles', () => {
    const candles = buildCandles(runtime().candleSource(), '1d', 0, START + 10 * 86_400_000, START);
    expect(candles.length).toBeLessThanOrEqual(1002);
    expect(candles[candles.length - 1]!.t).toBeLessThanOrEqual(START);
  });

  it('ends the current candle at the live mid and includes every live price in its range', () => {
    const r = runtime();
    r.quote(START, false);
    r.control.set(120_000, START + 5_000, false);
    const peak = r.quote(START + 5_000, false);
    r.control.set(90_000, START + 20_000, false);
    const last = r.quote(START + 20_000, false);
    const [current] = buildCandles(r.candleSource(), '1h', START, START + 20_000, START + 20_000).slice(-1);
    expect(Number(current!.c)).toBe(90_000);
    expect(Number(current!.h)).toBe(120_000);
    expect(midHalfTicks(last)).toBe(1_800_000);
    expect(midHalfTicks(peak)).toBe(2_400_000);
    const values = candleValues(r.candleSource(), START - 30_000, START + 29_999, START + 20_000);
    expect(values.l).toBeLessThanOrEqual(1_800_000);
  });
});
