import fc from 'fast-check';
import { bustPrice } from './bust-price';
import { isLiquidatable, liquidationDistance, liquidationRisk } from './liquidation';
import { rational } from './rational';

describe('liquidation', () => {
  it('a long is liquidatable at or below its bust, a short at or above', () => {
    expect(isLiquidatable('long', 649_659n, 649_659n)).toBe(true);
    expect(isLiquidatable('long', 649_660n, 649_659n)).toBe(false);
    expect(isLiquidatable('short', 650_341n, 650_341n)).toBe(true);
    expect(isLiquidatable('short', 650_340n, 650_341n)).toBe(false);
  });

  it('distance = |mark - bust| / mark', () => {
    // |650000 - 649659| / 650000 = 341 / 650000
    expect(liquidationDistance(650_000n, 649_659n)).toEqual(rational(341n, 650_000n));
    expect(liquidationDistance(100n, 150n)).toEqual(rational(1n, 2n));
    expect(() => liquidationDistance(0n, 1n)).toThrow(RangeError);
  });

  it('risk goes 0 -> 1 between entry and bust and is clamped', () => {
    // long E=1000, bust=900: mark 950 is half way
    expect(liquidationRisk('long', 1000n, 950n, 900n)).toEqual(rational(1n, 2n));
    expect(liquidationRisk('long', 1000n, 1100n, 900n)).toEqual(rational(0n));
    expect(liquidationRisk('long', 1000n, 800n, 900n)).toEqual(rational(1n));
    // short E=1000, bust=1100: mark 1075 is three quarters
    expect(liquidationRisk('short', 1000n, 1075n, 1100n)).toEqual(rational(3n, 4n));
    expect(liquidationRisk('short', 1000n, 900n, 1100n)).toEqual(rational(0n));
  });

  it('property: a long is liquidatable iff mark <= bust, and risk is 100% exactly then', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1_000n, max: 10_000_000n }),
        fc.integer({ min: 2, max: 1000 }),
        fc.bigInt({ min: 1n, max: 20_000_000n }),
        (entry, leverage, mark) => {
          const bust = bustPrice('long', entry, leverage, '0.000476');
          expect(isLiquidatable('long', mark, bust)).toBe(mark <= bust);
          const risk = liquidationRisk('long', entry, mark, bust);
          expect(risk.num === risk.den).toBe(mark <= bust);
          const shortBust = bustPrice('short', entry, leverage, '0.000476');
          expect(isLiquidatable('short', mark, shortBust)).toBe(mark >= shortBust);
        },
      ),
    );
  });
});
