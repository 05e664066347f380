import { rational } from '@paper/exchange';
import { percent, percentOf, priceText, px, signedUsdText, toBig, usd, usdText } from './money-format';

describe('money formatting', () => {
  it('turns micro-USDC into numbers through their exact decimal text', () => {
    expect(usd(1_234_567_891n)).toBe(1234.567891);
    expect(usd(-1n)).toBe(-0.000001);
    expect(usd(10_000_000_000n)).toBe(10000);
  });

  it('formats prices at the market precision', () => {
    expect(px(650_001n, 'BTC')).toBe(65000.1);
    expect(px(349_975n, 'ETH')).toBe(3499.75);
    expect(priceText(1_000_005n, 'BTC')).toBe('$100,000.5');
  });

  it('writes amounts for people', () => {
    expect(usdText(1_250_500_000n)).toBe('1,250.5 USDC');
    expect(signedUsdText(5_000_000n)).toBe('+5 USDC');
    expect(signedUsdText(-5_000_000n)).toBe('-5 USDC');
  });

  it('computes percentages exactly, truncated', () => {
    expect(percent(rational(1n, 3n), 4)).toBe(33.3333);
    expect(percentOf(-50n, 200n, 2)).toBe(-25);
    expect(percentOf(1n, 0n)).toBeNull();
  });

  it('reads database numerics as bigint', () => {
    expect(toBig('9007199254740993')).toBe(9007199254740993n);
    expect(toBig(null)).toBe(0n);
  });
});
