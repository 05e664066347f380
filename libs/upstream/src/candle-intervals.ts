import { CHART_INTERVALS } from '@paper/contracts';

/** The candle intervals the venue serves, shortest first: the intervals the chart tool accepts. */
export const CANDLE_INTERVALS = CHART_INTERVALS;

export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const INTERVAL_MS: Readonly<Record<CandleInterval, number>> = Object.freeze({
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '4h': 4 * HOUR,
  '8h': 8 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY,
  '3d': 3 * DAY,
  '1w': 7 * DAY,
  '1M': 30 * DAY,
});

export function isCandleInterval(value: unknown): value is CandleInterval {
  return typeof value === 'string' && (CANDLE_INTERVALS as readonly string[]).includes(value);
}

/** Length of one candle in milliseconds. `1M` is calendar months on the venue; this returns the nominal 30 days. */
export function intervalMs(interval: CandleInterval): number {
  return INTERVAL_MS[interval];
}
