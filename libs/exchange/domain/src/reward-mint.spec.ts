import fc from 'fast-check';
import { nextRewardHighWaterMark, rewardMintAmount, rewardMintRate } from './reward-mint';
import { rational } from './rational';

const U = 1_000_000n;

describe('reward mint', () => {
  it('mints 100 PAPER per USDC lost while the LP is below 2,000,000 USDC', () => {
    expect(rewardMintRate(2_000_000n * U - 1n, 50_000_000n * U)).toEqual(rational(100n));
    expect(rewardMintAmount(10n * U, 0n, 0n)).toBe(1_000n * U);
  });

  it('follows 100 * (S / (S + H))^2 at and above the threshold', () => {
    expect(rewardMintRate(2_000_000n * U, 0n)).toEqual(rational(100n));
    // exactly at the threshold the curve applies ("below" is strict)
    expect(rewardMintRate(2_000_000n * U, 1_000_000n * U)).toEqual(rational(1_440_000n, 14_641n));
    // H = 1,000,000: 100 * (120/121)^2 = 1,440,000 / 14,641
    expect(rewardMintRate(3_000_000n * U, 1_000_000n * U)).toEqual(rational(1_440_000n, 14_641n));
    // 10 USDC lost: 10e6 * 1440000 / 14641 = 983,539,375.7 -> 983,539,375 micro-PAPER
    expect(rewardMintAmount(10n * U, 3_000_000n * U, 1_000_000n * U)).toBe(983_539_375n);
    // H = S: a quarter of the base rate
    expect(rewardMintRate(2_500_000n * U, 120_000_000n * U)).toEqual(rational(25n));
    expect(rewardMintAmount(0n, 0n, 0n)).toBe(0n);
    expect(rewardMintAmount(-5n, 0n, 0n)).toBe(0n);
  });

  it('the high-water mark only rises, and tracks LP growth past 2,000,000', () => {
    expect(nextRewardHighWaterMark(0n, 1_000_000n * U)).toBe(0n);
    expect(nextRewardHighWaterMark(0n, 2_500_000n * U)).toBe(500_000n * U);
    expect(nextRewardHighWaterMark(500_000n * U, 2_100_000n * U)).toBe(500_000n * U);
  });

  it('property: the mint rate is non-increasing in H and never above 100', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 16n }),
        fc.bigInt({ min: 0n, max: 10n ** 16n }),
        fc.bigInt({ min: 0n, max: 10n ** 16n }),
        (lp, h1, h2) => {
          const [low, high] = h1 <= h2 ? [h1, h2] : [h2, h1];
          const a = rewardMintRate(lp, low);
          const b = rewardMintRate(lp, high);
          expect(b.num * a.den).toBeLessThanOrEqual(a.num * b.den);
          expect(a.num).toBeLessThanOrEqual(100n * a.den);
        },
      ),
    );
  });

  it('property: the high-water mark never goes down', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 10n ** 14n }), { maxLength: 30 }), (lps) => {
        let h = 0n;
        for (const lp of lps) {
          const next = nextRewardHighWaterMark(h, lp);
          expect(next).toBeGreaterThanOrEqual(h);
          expect(next).toBeGreaterThanOrEqual(lp - 2_000_000n * U);
          h = next;
        }
      }),
    );
  });
});
