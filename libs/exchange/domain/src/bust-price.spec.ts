import fc from 'fast-check';
import { bustPrice } from './bust-price';
import { Side } from './types';

describe('bustPrice: examples (by hand)', () => {
  it.each<[Side, bigint, number, string, bigint]>([
    // step = 650, zero = 649350, floor(649350 * 0.000476) = floor(309.0906) = 309
    ['long', 650_000n, 1000, '0.000476', 649_659n],
    // zero = 650650, floor(650650 * 0.000476) = floor(309.7094) = 309
    ['short', 650_000n, 1000, '0.000476', 650_341n],
    // step = E: zero = 0, buffer 0
    ['long', 650_000n, 1, '0.000476', 0n],
    // zero = 1300000, floor(618.8) = 618
    ['short', 650_000n, 1, '0.000476', 1_299_382n],
    // ETH: step 3500, zero 346500, floor(166.32) = 166
    ['long', 350_000n, 100, '0.00048', 346_666n],
    // zero 353500, floor(169.68) = 169
    ['short', 350_000n, 100, '0.00048', 353_331n],
    // step = floor(650001 / 7) = 92857, zero 557144, floor(265.200544) = 265
    ['long', 650_001n, 7, '0.000476', 557_409n],
  ])('%s E=%s L=%s b=%s -> %s', (side, entry, leverage, buffer, expected) => {
    expect(bustPrice(side, entry, leverage, buffer)).toBe(expected);
  });

  it('refuses a non-positive entry or leverage', () => {
    expect(() => bustPrice('long', 0n, 10, '0.000476')).toThrow(RangeError);
    expect(() => bustPrice('long', 100n, 0, '0.000476')).toThrow(RangeError);
    expect(() => bustPrice('long', 100n, 1.5, '0.000476')).toThrow(RangeError);
  });
});

describe('bustPrice: properties', () => {
  const entryArb = fc.bigInt({ min: 1_000n, max: 5_000_000_000n });
  const levArb = fc.integer({ min: 1, max: 1000 });
  const bufferArb = fc.constantFrom('0.000476', '0.00048', '0');

  // The wording "the bust price moves toward entry as leverage falls" has the direction backwards:
  // a lower leverage is a larger step = floor(E / L), so the bust price moves AWAY from entry (more room).
  it('as leverage falls the bust price moves away from entry, never toward it (long: lower, short: higher)', () => {
    fc.assert(
      fc.property(entryArb, levArb, levArb, bufferArb, (entry, a, b, buffer) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(bustPrice('long', entry, low, buffer)).toBeLessThanOrEqual(bustPrice('long', entry, high, buffer));
        expect(bustPrice('short', entry, low, buffer)).toBeGreaterThanOrEqual(bustPrice('short', entry, high, buffer));
        const distance = (side: Side, leverage: number) => {
          const bust = bustPrice(side, entry, leverage, buffer);
          return bust > entry ? bust - entry : entry - bust;
        };
        expect(distance('long', low)).toBeGreaterThanOrEqual(distance('long', high));
        expect(distance('short', low)).toBeGreaterThanOrEqual(distance('short', high));
      }),
    );
  });

  it('example: from 1000x to 1x the long bust falls from just below entry to 0, the short bust rises toward 2E', () => {
    const entry = 1_000_000n;
    const longs = [1000, 100, 10, 2, 1].map((l) => bustPrice('long', entry, l, '0.000476'));
    const shorts = [1000, 100, 10, 2, 1].map((l) => bustPrice('short', entry, l, '0.000476'));
    expect(longs).toEqual([999_475n, 990_471n, 900_428n, 500_238n, 0n]);
    expect(shorts).toEqual([1_000_524n, 1_009_520n, 1_099_477n, 1_499_286n, 1_999_048n]);
  });

  it('a long busts below entry and a short above it, within one step of entry', () => {
    fc.assert(
      fc.property(entryArb, levArb, bufferArb, (entry, leverage, buffer) => {
        const step = entry / BigInt(leverage);
        const long = bustPrice('long', entry, leverage, buffer);
        const short = bustPrice('short', entry, leverage, buffer);
        expect(long).toBeLessThan(entry);
        expect(long).toBeGreaterThanOrEqual(entry - step);
        expect(short).toBeGreaterThan(entry);
        expect(short).toBeLessThanOrEqual(entry + step);
      }),
    );
  });
});
