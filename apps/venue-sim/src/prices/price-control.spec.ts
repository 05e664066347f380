import { pathValue, PriceControl } from './price-control';

describe('PriceControl', () => {
  // A walk that rises 1 a millisecond from 100.
  const walk = (ms: number) => 100 + ms;

  it('follows the walk until told otherwise', () => {
    const control = new PriceControl(walk);
    expect(control.mid(10, false)).toBe(110);
  });

  it('sets the mid now and continues the walk from it', () => {
    const control = new PriceControl(walk);
    control.set(220, 10, false);
    expect(control.mid(10, false)).toBeCloseTo(220, 9);
    expect(control.mid(110, false)).toBeCloseTo(220 * (210 / 110), 9);
  });

  it('holds the mid while frozen and resumes from it when unfrozen', () => {
    const control = new PriceControl(walk);
    control.freeze(true, false, 10);
    expect(control.mid(500, true)).toBe(110);
    control.set(90, 600, true);
    expect(control.mid(900, true)).toBe(90);
    control.freeze(false, true, 1000);
    expect(control.mid(1000, false)).toBeCloseTo(90, 9);
    expect(control.mid(2000, false)).toBeGreaterThan(90);
  });

  it('moves along a stepped linear path, then holds (frozen) or walks on from its end', () => {
    const frozen = new PriceControl(walk);
    frozen.freeze(true, false, 0);
    frozen.startPath(200, 1000, 4, 0, true);
    expect(frozen.mid(0, true)).toBe(100);
    expect(frozen.mid(260, true)).toBe(125);
    expect(frozen.mid(999, true)).toBe(175);
    expect(frozen.mid(1000, true)).toBe(200);
    expect(frozen.mid(5000, true)).toBe(200);

    const live = new PriceControl(walk);
    live.startPath(50, 100, 1, 0, false);
    expect(live.mid(100, false)).toBeCloseTo(50, 9);
    expect(live.mid(200, false)).toBeCloseTo(50 * (300 / 200), 9);
    expect(live.state(200, false).path).toBeUndefined();
  });

  it('computes path values clamped to the path', () => {
    const move = { from: 10, to: 20, startMs: 100, durationMs: 100, steps: 10 };
    expect(pathValue(move, 50)).toBe(10);
    expect(pathValue(move, 155)).toBe(15);
    expect(pathValue(move, 1000)).toBe(20);
  });
});
