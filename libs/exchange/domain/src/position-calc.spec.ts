import fc from 'fast-check';
import { marketConfig } from './market-config';
import { calculatePosition, pnlScenarios } from './position-calc';
import { rational } from './rational';
import { Side } from './types';

const U = 1_000_000n;

describe('calculatePosition', () => {
  it('BTC long 10 USDC x 1000 at 65000.0, exit 65650.0', () => {
    const r = calculatePosition({
      market: 'BTC',
      side: 'long',
      marginMicro: 10n * U,
      leverage: 1000,
      entryPrice: 650_000n,
      exitPrice: 656_500n,
    });
    expect(r.notionalMicro).toBe(10_000n * U);
    expect(r.bustPrice).toBe(649_659n); // see bust-price.spec
    expect(r.deadband).toBe(13n);
    // |650000 - 649659| / 650000 = 341/650000 = 0.052461538...%
    expect(r.liquidationDistance).toEqual(rational(341n, 650_000n));
    expect(r.liquidationDistancePercent).toBe('0.052461');
    // M * L is 1e10 micro as in the settlement table: raw 99.8 USDC, payout 86.383978 USDC
    expect(r.exit).toMatchObject({ exitPrice: 656_500n, liquidated: false, pnlMicro: 86_383_978n });
    expect(r.exit?.settlement?.feeMicro).toBe(1_762_938n);
  });

  it('an exit at or past the bust price is a liquidation losing the whole margin', () => {
    const r = calculatePosition({
      market: 'BTC',
      side: 'long',
      marginMicro: 10n * U,
      leverage: 1000,
      entryPrice: 650_000n,
      exitPrice: 649_659n,
    });
    expect(r.exit).toEqual({ exitPrice: 649_659n, liquidated: true, pnlMicro: -10n * U, settlement: null });
    const justAbove = calculatePosition({
      market: 'BTC',
      side: 'long',
      marginMicro: 10n * U,
      leverage: 1000,
      entryPrice: 650_000n,
      exitPrice: 649_660n,
    });
    expect(justAbove.exit?.liquidated).toBe(false);
    // raw = 1e10 * -340 / 650000 = -5,230,769.2 -> -5,230,769
    expect(justAbove.exit?.pnlMicro).toBe(-5_230_769n);
  });

  it('without an exit price reports no exit', () => {
    const r = calculatePosition({
      market: 'ETH',
      side: 'short',
      marginMicro: 100n * U,
      leverage: 100,
      entryPrice: 350_000n,
    });
    expect(r.bustPrice).toBe(353_331n);
    expect(r.exit).toBeNull();
  });

  it('honours a custom config', () => {
    const config = marketConfig('BTC', { bustBuffer: '0' });
    const r = calculatePosition({
      market: 'BTC',
      side: 'long',
      marginMicro: 10n * U,
      leverage: 1000,
      entryPrice: 650_000n,
      config,
    });
    expect(r.bustPrice).toBe(649_350n);
  });
});

describe('pnlScenarios', () => {
  it('BTC long 100 USDC x 50 at 65000.0 (bust 63730.3)', () => {
    const s = pnlScenarios({ market: 'BTC', side: 'long', marginMicro: 100n * U, leverage: 50, entryPrice: 650_000n });
    expect(s.map((x) => [x.label, x.outcome.exitPrice, x.outcome.liquidated, x.outcome.pnlMicro])).toEqual([
      ['-5%', 617_500n, true, -100n * U],
      // raw = 5e9 * -6500 / 650000
      ['-1%', 643_500n, false, -50n * U],
      // raw 49.9 USDC, adjusted 44.073458, fee 0.881469
      ['+1%', 656_500n, false, 43_191_989n],
      // raw 249.9 USDC, adjusted 224.060798, fee 4.481215
      ['+5%', 682_500n, false, 219_579_583n],
      // step 13000, zero 637000, floor(637000 * 0.000476) = 303
      ['bust', 637_303n, true, -100n * U],
    ]);
  });

  it('accepts custom moves and labels fractional percentages', () => {
    const s = pnlScenarios({
      market: 'ETH',
      side: 'short',
      marginMicro: 10n * U,
      leverage: 1000,
      entryPrice: 350_000n,
      movesBps: [-25, 250],
    });
    expect(s.map((x) => x.label)).toEqual(['-0.25%', '+2.5%', 'bust']);
    expect(s[0].outcome.liquidated).toBe(false);
    expect(s[0].outcome.pnlMicro).toBeGreaterThan(0n);
    expect(s[1].outcome.liquidated).toBe(true);
  });

  it('property: the bust scenario always loses exactly the margin, and no scenario loses more', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Side>('long', 'short'),
        fc.constantFrom<'BTC' | 'ETH'>('BTC', 'ETH'),
        fc.bigInt({ min: 10n * U, max: 10_000n * U }),
        fc.integer({ min: 1, max: 1000 }),
        fc.bigInt({ min: 10_000n, max: 2_000_000_000n }),
        (side, market, marginMicro, leverage, entryPrice) => {
          const s = pnlScenarios({ market, side, marginMicro, leverage, entryPrice });
          expect(s[s.length - 1].outcome.pnlMicro).toBe(-marginMicro);
          for (const x of s) expect(x.outcome.pnlMicro).toBeGreaterThanOrEqual(-marginMicro);
        },
      ),
    );
  });
});
