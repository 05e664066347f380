import fc from 'fast-check';
import { BTC_MARKET_CONFIG, ETH_MARKET_CONFIG, MarketConfig } from './market-config';
import { settle } from './settlement';
import { Side } from './types';

const U = 1_000_000n;

/**
 * Independent reference: the keep ratio multiplied through by x * rateMultiplier * positionMultiplier
 * * 1e6 and by 1000 (positionMultiplier has 3 decimals), giving one closed-form fraction:
 *   keep = 9 * move * 15000 * PM * 1e6 / (10 * (move * 15000 * PM * 1e6 + E * PM * 1e6 + E * 100000 * 15000 * 1000))
 * with PM = positionMultiplier * 1000 (814598 for BTC, 483979 for ETH).
 */
function reference(side: Side, e: bigint, x: bigint, m: bigint, l: bigint, pm: bigint) {
  const d = e / 50_000n;
  let xp: bigint;
  if (side === 'long') xp = x > e + d ? x - d : x > e ? e : x;
  else xp = x + d < e ? x + d : x < e ? e : x;
  const move = side === 'long' ? xp - e : e - xp;
  const raw = (m * l * move) / e;
  if (raw <= 0n) return { raw, pnl: raw < -m ? -m : raw, fee: 0n };
  const a = move * 15_000n * pm * 1_000_000n;
  const den = a + e * pm * 1_000_000n + e * 100_000n * 15_000n * 1_000n;
  const adjusted = (raw * 9n * a) / (10n * den);
  const fee = adjusted / 50n; // 2%
  return { raw, pnl: adjusted - fee, fee };
}

describe('settle: example table (computed by hand and with Python fractions)', () => {
  // side, config, E, X, margin, leverage, rawPnl, adjusted, fee, pnl
  const rows: Array<[Side, MarketConfig, bigint, bigint, bigint, number, bigint, bigint, bigint, bigint]> = [
    // d = 13, X' = 656487, move 6487, raw = 1e10 * 6487 / 650000 = 99.8 USDC; keep = 5487539427/6212995930 ~ 0.88324
    ['long', BTC_MARKET_CONFIG, 650_000n, 656_500n, 100n * U, 100, 99_800_000n, 88_146_916n, 1_762_938n, 86_383_978n],
    // the mirrored short
    ['short', BTC_MARKET_CONFIG, 650_000n, 643_500n, 100n * U, 100, 99_800_000n, 88_146_916n, 1_762_938n, 86_383_978n],
    // exit exactly at E + d: inside the deadband, pays 0
    ['long', BTC_MARKET_CONFIG, 650_000n, 650_013n, 100n * U, 100, 0n, 0n, 0n, 0n],
    // one tick past the deadband: move 1, raw 15384 (15384.6 truncated), keep ~ 0.00725 -> 111, fee 2
    ['long', BTC_MARKET_CONFIG, 650_000n, 650_014n, 100n * U, 100, 15_384n, 111n, 2n, 109n],
    // loss: -1% at 50x = -50 USDC, no deadband, no fee
    ['long', BTC_MARKET_CONFIG, 650_000n, 643_500n, 100n * U, 50, -50_000_000n, -50_000_000n, 0n, -50_000_000n],
    // loss truncates toward zero: -15384.6 -> -15384 (floor would give -15385)
    ['long', BTC_MARKET_CONFIG, 650_000n, 649_999n, 10n * U, 1000, -15_384n, -15_384n, 0n, -15_384n],
    // loss capped at the margin: raw -769.23 USDC, margin 10 USDC
    ['long', BTC_MARKET_CONFIG, 650_000n, 600_000n, 10n * U, 1000, -769_230_769n, -10_000_000n, 0n, -10_000_000n],
    // ETH +10% at 10x: d = 7, move 34993, raw 999.8 USDC, keep ~ 0.897547
    [
      'long',
      ETH_MARKET_CONFIG,
      350_000n,
      385_000n,
      1000n * U,
      10,
      999_800_000n,
      897_367_119n,
      17_947_342n,
      879_419_777n,
    ],
    // BTC short -10% at 20x: d = 20, X' = 900020, move 99980
    ['short', BTC_MARKET_CONFIG, 1_000_000n, 900_000n, 50n * U, 20, 99_980_000n, 89_811_838n, 1_796_236n, 88_015_602n],
    // ETH short exactly at E - d pays 0; one tick further pays a sliver
    ['short', ETH_MARKET_CONFIG, 350_000n, 349_993n, 100n * U, 100, 0n, 0n, 0n, 0n],
    ['short', ETH_MARKET_CONFIG, 350_000n, 349_992n, 100n * U, 100, 28_571n, 266n, 5n, 261n],
    // doubling at 1000x: keep approaches 90%
    [
      'long',
      BTC_MARKET_CONFIG,
      650_000n,
      1_300_000n,
      10n * U,
      1000,
      9_999_800_000n,
      8_998_115_483n,
      179_962_309n,
      8_818_153_174n,
    ],
  ];

  it.each(rows)('%s %#: E=%s X=%s', (side, config, entry, exit, marginMicro, leverage, raw, adjusted, fee, pnl) => {
    const result = settle({ side, entry, exit, marginMicro, leverage, config });
    expect(result.rawPnlMicro).toBe(raw);
    expect(result.adjustedMicro).toBe(adjusted);
    expect(result.feeMicro).toBe(fee);
    expect(result.pnlMicro).toBe(pnl);
    expect(result.isWin).toBe(raw > 0n);
  });

  it('reports the breakdown of a win', () => {
    const r = settle({
      side: 'long',
      entry: 650_000n,
      exit: 656_500n,
      marginMicro: 100n * U,
      leverage: 100,
      config: BTC_MARKET_CONFIG,
    });
    expect(r).toMatchObject({
      deadband: 13n,
      exitAfterDeadband: 656_487n,
      move: 6_487n,
      keep: { num: 5_487_539_427n, den: 6_212_995_930n },
      keepRatio: '0.883235638462',
      haircutMicro: 99_800_000n - 88_146_916n,
      payoutMicro: 86_383_978n,
      lossMicro: 0n,
      marginReturnedMicro: 100n * U,
    });
  });

  it('reports the breakdown of a loss', () => {
    const r = settle({
      side: 'short',
      entry: 650_000n,
      exit: 656_500n,
      marginMicro: 100n * U,
      leverage: 50,
      config: BTC_MARKET_CONFIG,
    });
    expect(r).toMatchObject({
      isWin: false,
      keep: null,
      keepRatio: null,
      feeMicro: 0n,
      pnlMicro: -50n * U,
      lossMicro: 50n * U,
      marginReturnedMicro: 50n * U,
    });
  });
});

const entryArb = fc.bigInt({ min: 1_000n, max: 2_000_000_000n });
const marginArb = fc.bigInt({ min: 1n, max: 10_000_000n * U });
const leverageArb = fc.integer({ min: 1, max: 1000 });
const sideArb = fc.constantFrom<Side>('long', 'short');
const configArb = fc.constantFrom(BTC_MARKET_CONFIG, ETH_MARKET_CONFIG);
const pm = (config: MarketConfig) => (config.market === 'BTC' ? 814_598n : 483_979n);

describe('settle: properties', () => {
  it('matches the closed-form reference', () => {
    fc.assert(
      fc.property(
        sideArb,
        configArb,
        entryArb,
        fc.integer({ min: -9_999, max: 50_000 }),
        marginArb,
        leverageArb,
        (side, config, entry, bps, m, l) => {
          const exit = entry + (entry * BigInt(bps)) / 10_000n;
          const got = settle({ side, entry, exit, marginMicro: m, leverage: l, config });
          const want = reference(side, entry, exit, m, BigInt(l), pm(config));
          expect([got.rawPnlMicro, got.feeMicro, got.pnlMicro]).toEqual([want.raw, want.fee, want.pnl]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a win never keeps more than 90% of rawPnl before the fee, and the fee is 2% of it', () => {
    fc.assert(
      fc.property(
        sideArb,
        configArb,
        entryArb,
        fc.integer({ min: 1, max: 100_000 }),
        marginArb,
        leverageArb,
        (side, config, entry, bps, m, l) => {
          const delta = (entry * BigInt(bps)) / 10_000n + 1n;
          const exit = side === 'long' ? entry + delta : entry - delta;
          fc.pre(exit > 0n);
          const r = settle({ side, entry, exit, marginMicro: m, leverage: l, config });
          fc.pre(r.isWin);
          expect(r.adjustedMicro * 10n).toBeLessThanOrEqual(r.rawPnlMicro * 9n);
          expect(r.adjustedMicro).toBeGreaterThanOrEqual(0n);
          expect(r.feeMicro).toBe((r.adjustedMicro * 2n) / 100n);
          expect(r.pnlMicro + r.feeMicro + r.haircutMicro).toBe(r.rawPnlMicro);
        },
      ),
    );
  });

  it('a loss never exceeds the margin', () => {
    fc.assert(
      fc.property(
        sideArb,
        configArb,
        entryArb,
        fc.bigInt({ min: 0n, max: 4_000_000_000n }),
        marginArb,
        leverageArb,
        (side, config, entry, exit, m, l) => {
          const r = settle({ side, entry, exit, marginMicro: m, leverage: l, config });
          expect(r.pnlMicro).toBeGreaterThanOrEqual(-m);
          expect(r.marginReturnedMicro).toBeGreaterThanOrEqual(0n);
          if (!r.isWin) expect(r.lossMicro).toBe(-r.pnlMicro);
        },
      ),
    );
  });

  it('a long from E to X and a short from E to 2E - X settle identically', () => {
    fc.assert(
      fc.property(
        configArb,
        entryArb,
        fc.integer({ min: -9_999, max: 9_999 }),
        fc.integer({ min: -30, max: 30 }),
        marginArb,
        leverageArb,
        (config, entry, bps, ticks, m, l) => {
          const exit = entry + (entry * BigInt(bps)) / 10_000n + BigInt(ticks);
          const mirrored = 2n * entry - exit;
          fc.pre(exit >= 0n && mirrored >= 0n);
          const long = settle({ side: 'long', entry, exit, marginMicro: m, leverage: l, config });
          const short = settle({ side: 'short', entry, exit: mirrored, marginMicro: m, leverage: l, config });
          expect(short.pnlMicro).toBe(long.pnlMicro);
          expect(short.move).toBe(long.move);
        },
      ),
    );
  });

  it('an exit within the deadband in the position’s favour pays exactly zero', () => {
    fc.assert(
      fc.property(
        sideArb,
        configArb,
        fc.bigInt({ min: 50_000n, max: 2_000_000_000n }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        marginArb,
        leverageArb,
        (side, config, entry, t, m, l) => {
          const d = entry / 50_000n;
          const offset = 1n + BigInt(Math.floor(t * Number(d - 1n))); // in 1..d
          const exit = side === 'long' ? entry + offset : entry - offset;
          const r = settle({ side, entry, exit, marginMicro: m, leverage: l, config });
          expect(r.exitAfterDeadband).toBe(entry);
          expect(r.pnlMicro).toBe(0n);
          const past = settle({
            side,
            entry,
            exit: side === 'long' ? entry + d + 1n : entry - d - 1n,
            marginMicro: m,
            leverage: l,
            config,
          });
          expect(past.move).toBe(1n);
        },
      ),
    );
  });
});
