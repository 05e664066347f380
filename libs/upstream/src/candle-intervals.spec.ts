import { CANDLE_INTERVALS, intervalMs, isCandleInterval } from './candle-intervals';
import { backoffDelay, parseRetryAfter } from './retry-policy';
import { candleSnapshotWeight } from './request-weight';
import { WeightBucket } from './weight-bucket';

describe('candle intervals', () => {
  it('lists the 14 venue intervals with increasing lengths', () => {
    expect(CANDLE_INTERVALS).toHaveLength(14);
    const lengths = CANDLE_INTERVALS.map(intervalMs);
    expect([...lengths].sort((a, b) => a - b)).toEqual(lengths);
    expect(intervalMs('1m')).toBe(60_000);
    expect(intervalMs('1w')).toBe(7 * 86_400_000);
  });

  it('recognises intervals exactly', () => {
    expect(isCandleInterval('4h')).toBe(true);
    expect(isCandleInterval('1M')).toBe(true);
    expect(isCandleInterval('1mo')).toBe(false);
    expect(isCandleInterval(60)).toBe(false);
  });
});

describe('request weight', () => {
  it('charges 20 plus 1 per 60 candles', () => {
    expect(candleSnapshotWeight(0)).toBe(20);
    expect(candleSnapshotWeight(59)).toBe(20);
    expect(candleSnapshotWeight(5000)).toBe(103);
  });

  it('refills the bucket continuously at capacity a minute and reports the wait', () => {
    let now = 0;
    const bucket = new WeightBucket(60, () => now);
    expect(bucket.tryTake(50)).toBe(true);
    expect(bucket.tryTake(20)).toBe(false);
    expect(bucket.msUntil(20)).toBe(10_000);
    now = 10_000;
    expect(bucket.tryTake(20)).toBe(true);
    bucket.take(30);
    expect(bucket.available()).toBe(-30);
    expect(bucket.msUntil(61)).toBe(Number.POSITIVE_INFINITY);
    now = 200_000;
    expect(bucket.isFull()).toBe(true);
  });
});

describe('retry policy', () => {
  it('backs off exponentially with jitter, capped', () => {
    expect(backoffDelay(0, 100, 10_000, () => 0)).toBe(50);
    expect(backoffDelay(3, 100, 10_000, () => 1)).toBe(800);
    expect(backoffDelay(20, 100, 10_000, () => 1)).toBe(10_000);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
  });
});
