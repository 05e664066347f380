import { depthFor, PricePath } from './price-path';
import { gaussian, hash32, uniform } from './prng';

describe('seeded randomness', () => {
  it('is a pure function of seed, stream and index', () => {
    expect(hash32(42, 1, 7)).toBe(hash32(42, 1, 7));
    expect(hash32(42, 1, 7)).not.toBe(hash32(43, 1, 7));
    expect(hash32(42, 1, 7)).not.toBe(hash32(42, 2, 7));
    expect(hash32(42, 1, 2 ** 40 + 7)).not.toBe(hash32(42, 1, 7));
  });

  it('draws uniforms in [0, 1) and unit-variance normals', () => {
    const us = Array.from({ length: 20000 }, (_, i) => uniform(1, 1, i));
    expect(Math.min(...us)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...us)).toBeLessThan(1);
    expect(us.reduce((a, b) => a + b, 0) / us.length).toBeCloseTo(0.5, 1);
    const gs = Array.from({ length: 20000 }, (_, i) => gaussian(1, 1, i));
    const mean = gs.reduce((a, b) => a + b, 0) / gs.length;
    const variance = gs.reduce((a, b) => a + (b - mean) ** 2, 0) / gs.length;
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(variance).toBeGreaterThan(0.9);
    expect(variance).toBeLessThan(1.1);
  });
});

describe('PricePath', () => {
  const options = { seed: 42, stream: 1, sigmaPerStep: 1e-4, capSteps: 2_592_000, depth: depthFor(345_600_000) };

  it('starts at the anchor and gives the same values for the same seed, in any order', () => {
    const a = new PricePath(options);
    const b = new PricePath(options);
    expect(a.logOffset(0)).toBe(0);
    const steps = [-86_400_000, -3600, -1, 1, 5, 123_456];
    const forward = steps.map((s) => a.logOffset(s));
    const backward = [...steps]
      .reverse()
      .map((s) => b.logOffset(s))
      .reverse();
    expect(backward).toEqual(forward);
    expect(new PricePath({ ...options, seed: 7 }).logOffset(-3600)).not.toBe(forward[1]);
  });

  it('moves by about sigma per step and sigma * sqrt(n) over n steps', () => {
    const path = new PricePath(options);
    const stdOf = (lag: number, count: number) => {
      const diffs = Array.from({ length: count }, (_, i) => path.logOffset(-i * 997 - lag) - path.logOffset(-i * 997));
      return Math.sqrt(diffs.reduce((a, d) => a + d * d, 0) / diffs.length);
    };
    const one = stdOf(1, 4000);
    expect(one).toBeGreaterThan(0.8e-4);
    expect(one).toBeLessThan(1.2e-4);
    const hundred = stdOf(100, 2000);
    expect(hundred).toBeGreaterThan(0.8e-3);
    expect(hundred).toBeLessThan(1.2e-3);
  });

  it('stays within a plausible range over years of history', () => {
    const path = new PricePath({ ...options, sigmaPerStep: 0.5 * Math.sqrt(1 / 31_536_000) });
    for (let day = 1; day <= 1000; day += 7) {
      expect(Math.abs(path.logOffset(-day * 86_400))).toBeLessThan(2.5);
    }
  });

  it('covers the requested horizon', () => {
    expect(2 ** depthFor(1000)).toBeGreaterThanOrEqual(1000);
    expect(depthFor(1024)).toBe(10);
  });
});
