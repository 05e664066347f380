import { MinuteBars } from './minute-bars';

describe('MinuteBars', () => {
  const volume = () => 2;

  it('aggregates served mids into one OHLC bar a minute', () => {
    const bars = new MinuteBars(10);
    bars.record(60_000, 100, volume);
    bars.record(70_000, 104, volume);
    bars.record(80_000, 98, volume);
    bars.record(119_999, 101, volume);
    bars.record(120_000, 102, volume);
    expect(bars.at(90_000)).toEqual({ o: 100, h: 104, l: 98, c: 101, v: 2 });
    expect(bars.between(0, 200_000).map((b) => b.c)).toEqual([101, 102]);
    expect(bars.startMs()).toBe(60_000);
  });

  it('leaves unrecorded minutes empty and drops the oldest past its capacity', () => {
    const bars = new MinuteBars(3);
    bars.record(0, 1, volume);
    bars.record(120_000, 3, volume);
    expect(bars.between(0, 180_000).map((b) => b.o)).toEqual([1, 3]);
    bars.record(180_000, 4, volume);
    bars.record(240_000, 5, volume);
    expect(bars.size).toBe(3);
    expect(bars.startMs()).toBe(120_000);
    expect(bars.at(0)).toBeUndefined();
    bars.clear();
    expect(bars.startMs()).toBeUndefined();
  });
});
