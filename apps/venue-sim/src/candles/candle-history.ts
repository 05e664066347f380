import { type Candle, type CandleInterval, MAX_CANDLES_PER_REQUEST } from '@paper/upstream';
import type { MarketSpec } from '../markets/market-spec';
import { formatHalfTicks } from '../prices/quote';
import { candleOpens, nextCandleOpen } from './candle-time';
import type { MinuteBar, MinuteBars } from './minute-bars';

// Math functions held locally: hot loops stay fast in sandboxed runtimes (jest) too.
const { ceil, floor, min, max, round } = Math;

/** Where candle prices come from: the seeded path before the live record, the recorded minute bars after. */
export interface CandleSource {
  market: MarketSpec;
  /** Mid of the seeded path at a time, in half ticks. */
  pathMid(ms: number): number;
  /** Base volume traded on the seeded path over [fromMs, fromMs + lengthMs). */
  pathVolume(fromMs: number, lengthMs: number): number;
  bars: MinuteBars;
  tickMs: number;
  /** The market's first candle (no history before it). */
  listedAt: number;
}

export interface CandleValues {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** Points of the seeded path sampled per candle for its high and low (open and close always included). */
const SAMPLES = 16;

function pathPart(src: CandleSource, from: number, to: number): CandleValues {
  const first = ceil(from / src.tickMs);
  const last = max(first, floor(to / src.tickMs));
  const count = min(SAMPLES, last - first + 1);
  const mids: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const step = count === 1 ? first : first + round((i * (last - first)) / (count - 1));
    mids.push(src.pathMid(step * src.tickMs));
  }
  return {
    o: mids[0]!,
    c: mids[mids.length - 1]!,
    h: max(...mids),
    l: min(...mids),
    v: src.pathVolume(from, to - from + 1),
  };
}

function barsPart(bars: readonly MinuteBar[]): CandleValues | undefined {
  if (bars.length === 0) return undefined;
  let h = -Infinity;
  let l = Infinity;
  let v = 0;
  for (const bar of bars) {
    h = max(h, bar.h);
    l = min(l, bar.l);
    v += bar.v;
  }
  return { o: bars[0]!.o, c: bars[bars.length - 1]!.c, h, l, v };
}

/** OHLCV of the candle [open, close] as known at `now` (prices in half ticks). */
export function candleValues(src: CandleSource, open: number, close: number, now: number): CandleValues {
  const end = min(close, now);
  const liveFrom = src.bars.startMs() ?? Number.POSITIVE_INFINITY;
  const past = open < liveFrom ? pathPart(src, open, min(end, liveFrom - 1)) : undefined;
  const live = liveFrom <= end ? barsPart(src.bars.between(max(open, liveFrom), end)) : undefined;
  if (!past) return live ?? pathPart(src, open, end);
  if (!live) return past;
  return { o: past.o, c: live.c, h: max(past.h, live.h), l: min(past.l, live.l), v: past.v + live.v };
}

/** The candles of [startTime, endTime] (the latest 5000 at most), oldest first, in the venue's shape. */
export function buildCandles(
  src: CandleSource,
  interval: CandleInterval,
  startTime: number,
  endTime: number,
  now: number,
): Candle[] {
  const { market } = src;
  const opens = candleOpens(interval, startTime, min(endTime, now), src.listedAt, MAX_CANDLES_PER_REQUEST);
  return opens.map((t) => {
    const T = nextCandleOpen(interval, t) - 1;
    const values = candleValues(src, t, T, now);
    const v = Number(values.v.toFixed(market.szDecimals));
    return {
      t,
      T,
      s: market.coin,
      i: interval,
      o: formatHalfTicks(values.o, market.priceDecimals),
      c: formatHalfTicks(values.c, market.priceDecimals),
      h: formatHalfTicks(values.h, market.priceDecimals),
      l: formatHalfTicks(values.l, market.priceDecimals),
      v: v.toFixed(market.szDecimals),
      n: max(v > 0 ? 1 : 0, round(v / market.avgTradeSize)),
    };
  });
}
