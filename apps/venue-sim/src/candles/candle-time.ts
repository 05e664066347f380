import { type CandleInterval, intervalMs } from '@paper/upstream';

const DAY = 86_400_000;
/** Weekly candles open on Monday 00:00 UTC (the epoch was a Thursday). */
const WEEK_OFFSET = 4 * DAY;

/** Open time of the candle containing `ms`. Months follow the UTC calendar. */
export function candleOpen(interval: CandleInterval, ms: number): number {
  if (interval === '1M') {
    const d = new Date(ms);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const length = intervalMs(interval);
  const offset = interval === '1w' ? WEEK_OFFSET : 0;
  return Math.floor((ms - offset) / length) * length + offset;
}

/** Open time of the candle after the one opening at `open`. */
export function nextCandleOpen(interval: CandleInterval, open: number): number {
  if (interval === '1M') {
    const d = new Date(open);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return open + intervalMs(interval);
}

/** Open time of the candle before the one opening at `open`. */
export function previousCandleOpen(interval: CandleInterval, open: number): number {
  if (interval === '1M') {
    const d = new Date(open);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
  }
  return open - intervalMs(interval);
}

/**
 * Open times of the candles from the one containing `startTime` to the one containing `endTime`, not before
 * the one containing `firstMs`, keeping only the latest `limit`, oldest first.
 */
export function candleOpens(
  interval: CandleInterval,
  startTime: number,
  endTime: number,
  firstMs: number,
  limit: number,
): number[] {
  if (endTime < startTime || endTime < firstMs) return [];
  const first = candleOpen(interval, Math.max(startTime, firstMs));
  const opens: number[] = [];
  for (
    let open = candleOpen(interval, endTime);
    open >= first && opens.length < limit;
    open = previousCandleOpen(interval, open)
  ) {
    opens.push(open);
  }
  return opens.reverse();
}
