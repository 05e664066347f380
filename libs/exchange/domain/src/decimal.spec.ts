import fc from 'fast-check';
import {
  decimalToScaled,
  formatUsdc,
  microToUsdc,
  parseDecimal,
  priceToScaled,
  scaledToDecimal,
  scaledToPrice,
  usdc,
  usdcToMicro,
} from './decimal';
import { rational, toDecimalString, toFixedString } from './rational';

describe('decimal', () => {
  it.each<[string | number, bigint, bigint]>([
    ['814.598', 407_299n, 500n],
    ['0.000476', 119n, 250_000n],
    ['-0.10', -1n, 10n],
    ['15000', 15_000n, 1n],
    ['1e6', 1_000_000n, 1n],
    ['1.5E-3', 3n, 2_000n],
    [0.1, 1n, 10n],
    [1e-7, 1n, 10_000_000n],
    ['.5', 1n, 2n],
  ])('parseDecimal(%p) = %s/%s exactly', (input, num, den) => {
    expect(parseDecimal(input)).toEqual({ num, den });
  });

  it.each(['', '.', 'abc', '1.2.3', '--1', '1e', NaN, Infinity])('parseDecimal refuses %p', (input) => {
    expect(() => parseDecimal(input as string | number)).toThrow(RangeError);
  });

  it('converts USDC and micro-USDC, truncating past 6 decimals', () => {
    expect(usdcToMicro('10')).toBe(10_000_000n);
    expect(usdcToMicro(9.999999)).toBe(9_999_999n);
    expect(usdcToMicro('9.9999999')).toBe(9_999_999n);
    expect(usdcToMicro('-1.0000009')).toBe(-1_000_000n);
    expect(microToUsdc(9_999_999n)).toBe('9.999999');
    expect(microToUsdc(10_000_000n)).toBe('10');
    expect(microToUsdc(-1_500_000n)).toBe('-1.5');
    expect(microToUsdc(5n)).toBe('0.000005');
    expect(usdc(10_000)).toBe(10_000_000_000n);
    expect(formatUsdc(10_000_000_000n)).toBe('10,000');
    expect(formatUsdc(-1_250_500_000n)).toBe('-1,250.5');
  });

  it('converts prices to the market scale (BTC x10, ETH x100)', () => {
    expect(priceToScaled(65000.15, 1)).toBe(650_001n);
    expect(priceToScaled('3500.257', 2)).toBe(350_025n);
    expect(scaledToPrice(650_001n, 1)).toBe('65000.1');
    expect(scaledToPrice(350_000n, 2)).toBe('3500');
  });

  it('property: scaled -> decimal -> scaled round-trips', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 18 }),
        (value, decimals) => {
          expect(decimalToScaled(scaledToDecimal(value, decimals), decimals)).toBe(value);
        },
      ),
    );
  });

  it('rationals normalise and print truncated toward zero', () => {
    expect(rational(6n, -4n)).toEqual({ num: -3n, den: 2n });
    expect(toFixedString(rational(-2n, 3n), 4)).toBe('-0.6666');
    expect(toFixedString(rational(2n, 3n), 0)).toBe('0');
    expect(toDecimalString(rational(1n, 4n))).toBe('0.25');
    expect(toDecimalString(rational(-1n, 10n ** 15n))).toBe('0');
    expect(() => rational(1n, 0n)).toThrow(RangeError);
  });
});
