import fc from 'fast-check';
import { bustPrice } from './bust-price';
import { closeAccounting, liquidationAccounting, SettlingPosition } from './close-accounting';
import { ACTIVATION_FEE_MICRO, evaluateDeposit } from './deposit-rules';
import { distributeToStakers, planHarvest } from './harvest-accounting';
import { bucketDelta, ledgerSum, PROTOCOL_OWNER } from './ledger';
import { isLiquidatable } from './liquidation';
import { BTC_MARKET_CONFIG } from './market-config';
import { openAccounting } from './open-accounting';
import { PoolState } from './pool-state';
import { splitProRata } from './pro-rata';

const U = 1_000_000n;
const W = '0x00000000000000000000000000000000000000aa';
const pool0: PoolState = {
  lpMicro: 0n,
  parkedMicro: 0n,
  highWaterMicro: 0n,
  queueNotEmpty: false,
  feesPendingMicro: 0n,
  stakingReserveMicro: 0n,
};
// bust = 643500 + floor(643500 * 0.000476) = 643806
const long: SettlingPosition = {
  wallet: W,
  side: 'long',
  entryPrice: 650_000n,
  marginMicro: 100n * U,
  leverage: 100,
  marginQueuedMicro: 0n,
  bustPrice: 643_806n,
};
const withBust = (p: Omit<SettlingPosition, 'bustPrice'>): SettlingPosition => ({
  ...p,
  bustPrice: bustPrice(p.side, p.entryPrice, p.leverage, BTC_MARKET_CONFIG.bustBuffer),
});

describe('open accounting', () => {
  it('takes margin from free first, then from queued winnings', () => {
    const r = openAccounting(W, 30n * U, 50n * U, 40n * U);
    expect(r.fromFreeMicro).toBe(30n * U);
    expect(r.fromQueuedMicro).toBe(10n * U);
    expect(ledgerSum(r.lines)).toBe(0n);
    expect(bucketDelta(r.lines, W, 'locked')).toBe(40n * U);
  });

  it('refuses margin above free + queued', () => {
    expect(() => openAccounting(W, 1n, 1n, 3n)).toThrow(RangeError);
  });
});

describe('close accounting', () => {
  it('pays a win from the LP, queues the rest, and queues the win fee the LP cannot pay with it', () => {
    const r = closeAccounting({
      position: long,
      exit: 656_500n,
      config: BTC_MARKET_CONFIG,
      pool: { ...pool0, lpMicro: 50n * U },
    });
    expect(r.outcome).toBe('closed');
    expect(r.pnlMicro).toBe(86_383_978n);
    expect(r.paidMicro).toBe(50n * U);
    expect(r.queuedPayoutMicro).toBe(86_383_978n - 50n * U);
    expect(r.feeMicro).toBe(1_762_938n);
    expect(r.feeCollectedMicro).toBe(0n);
    expect(r.feeQueuedMicro).toBe(1_762_938n);
    expect(r.pool.lpMicro).toBe(0n);
    expect(r.pool.queueNotEmpty).toBe(true);
    expect(r.account).toEqual({
      freeMicro: 150n * U,
      lockedMicro: -100n * U,
      queuedMicro: 36_383_978n,
      realizedPnlMicro: 86_383_978n,
      paperMicro: 0n,
    });
    // The LP owes the trader's rest and the fee; the fee is a receivable of protocol fees until paid.
    expect(bucketDelta(r.lines, PROTOCOL_OWNER, 'payout_queue')).toBe(-(36_383_978n + 1_762_938n));
    expect(bucketDelta(r.lines, PROTOCOL_OWNER, 'fees_queued')).toBe(1_762_938n);
    expect(bucketDelta(r.lines, PROTOCOL_OWNER, 'fees')).toBe(0n);
    expect(ledgerSum(r.lines)).toBe(0n);
  });

  it('pays the trader first and the fee from what is left: the unpaid part of the fee is queued', () => {
    const r = closeAccounting({
      position: long,
      exit: 656_500n,
      config: BTC_MARKET_CONFIG,
      pool: { ...pool0, lpMicro: 86_383_978n + U },
    });
    expect(r.paidMicro).toBe(86_383_978n);
    expect(r.queuedPayoutMicro).toBe(0n);
    expect(r.feeCollectedMicro).toBe(U);
    expect(r.feeQueuedMicro).toBe(762_938n);
    expect(r.pool).toMatchObject({ lpMicro: 0n, queueNotEmpty: true, feesPendingMicro: U });
    expect(ledgerSum(r.lines)).toBe(0n);
  });

  it('queues payout and fee whole while the queue is not empty', () => {
    const r = closeAccounting({
      position: long,
      exit: 656_500n,
      config: BTC_MARKET_CONFIG,
      pool: { ...pool0, lpMicro: 1000n * U, queueNotEmpty: true },
    });
    expect(r).toMatchObject({
      paidMicro: 0n,
      queuedPayoutMicro: 86_383_978n,
      feeCollectedMicro: 0n,
      feeQueuedMicro: 1_762_938n,
    });
    expect(r.pool.lpMicro).toBe(1000n * U);
  });

  it('collects the win fee into protocol fees when the LP can pay everything', () => {
    const r = closeAccounting({
      position: long,
      exit: 656_500n,
      config: BTC_MARKET_CONFIG,
      pool: { ...pool0, lpMicro: 1000n * U },
    });
    expect(r.feeCollectedMicro).toBe(1_762_938n);
    expect(r.pool.lpMicro).toBe(1000n * U - 86_383_978n - 1_762_938n);
    expect(r.pool.feesPendingMicro).toBe(1_762_938n);
    expect(bucketDelta(r.lines, PROTOCOL_OWNER, 'fees')).toBe(1_762_938n);
  });

  it('puts a loss into the LP and mints 100 PAPER per USDC lost below the threshold', () => {
    // -0.5% at 100x: 100 * 100 * -3250 / 650000 = -50 USDC
    const r = closeAccounting({ position: long, exit: 646_750n, config: BTC_MARKET_CONFIG, pool: pool0 });
    expect(r.outcome).toBe('closed');
    expect(r.pnlMicro).toBe(-50n * U);
    expect(r.lossCashMicro).toBe(50n * U);
    expect(r.pool.lpMicro).toBe(50n * U);
    expect(r.rewardMintedMicro).toBe(50n * 100n * U);
    expect(r.account.freeMicro).toBe(50n * U);
  });

  describe('a close at or past the bust price settles as a liquidation', () => {
    // BTC long, entry 100,000.0 (1,000,000 at scale x10), 100x, 100 USDC: step 10,000, zero 990,000,
    // bust = 990,000 + floor(990,000 * 0.000476) = 990,471. The win curve alone would give -96 USDC at 990,400.
    const btcLong = withBust({
      wallet: W,
      side: 'long',
      entryPrice: 1_000_000n,
      marginMicro: 100n * U,
      leverage: 100,
      marginQueuedMicro: 0n,
    });

    it('the example: at 990,400 the whole 100 USDC is lost, recorded as a liquidation with PAPER minted', () => {
      expect(btcLong.bustPrice).toBe(990_471n);
      const r = closeAccounting({
        position: btcLong,
        exit: 990_400n,
        config: BTC_MARKET_CONFIG,
        pool: { ...pool0, lpMicro: 7n * U },
      });
      expect(r).toMatchObject({
        outcome: 'liquidated',
        settlement: null,
        pnlMicro: -100n * U,
        lossCashMicro: 100n * U,
        rewardMintedMicro: 100n * 100n * U,
      });
      expect(r.account).toEqual({
        freeMicro: 0n,
        lockedMicro: -100n * U,
        queuedMicro: 0n,
        realizedPnlMicro: -100n * U,
        paperMicro: 100n * 100n * U,
      });
      expect(r.pool.lpMicro).toBe(107n * U);
      expect(r).toEqual(liquidationAccounting({ position: btcLong, pool: { ...pool0, lpMicro: 7n * U } }));
    });

    it('exactly at the bust price it is a liquidation; one tick better it is an ordinary loss', () => {
      expect(
        closeAccounting({ position: btcLong, exit: 990_471n, config: BTC_MARKET_CONFIG, pool: pool0 }).outcome,
      ).toBe('liquidated');
      const above = closeAccounting({ position: btcLong, exit: 990_472n, config: BTC_MARKET_CONFIG, pool: pool0 });
      // 100 * 100 * (990,472 - 1,000,000) / 1,000,000 = -95.28 USDC
      expect(above).toMatchObject({ outcome: 'closed', pnlMicro: -95_280_000n });
    });

    it('mirrors for a short', () => {
      const short = withBust({ ...btcLong, side: 'short' });
      // zero 1,010,000, bust = 1,010,000 - floor(1,010,000 * 0.000476) = 1,009,520
      expect(short.bustPrice).toBe(1_009_520n);
      expect(
        closeAccounting({ position: short, exit: 1_009_520n, config: BTC_MARKET_CONFIG, pool: pool0 }),
      ).toMatchObject({ outcome: 'liquidated', pnlMicro: -100n * U });
      expect(
        closeAccounting({ position: short, exit: 1_009_519n, config: BTC_MARKET_CONFIG, pool: pool0 }),
      ).toMatchObject({ outcome: 'closed', pnlMicro: -95_190_000n });
    });

    it('property: liquidated exactly when the exit is at or past the bust price; otherwise the loss stays below the margin', () => {
      fc.assert(
        fc.property(
          fc.constantFrom<'long' | 'short'>('long', 'short'),
          fc.bigInt({ min: 10n * U, max: 10_000n * U }),
          fc.integer({ min: 1, max: 1000 }),
          fc.bigInt({ min: 100_000n, max: 2_000_000n }),
          fc.integer({ min: -2_000, max: 2_000 }),
          (side, margin, leverage, entry, bps) => {
            const position = withBust({
              wallet: W,
              side,
              entryPrice: entry,
              marginMicro: margin,
              leverage,
              marginQueuedMicro: 0n,
            });
            const exit = entry + (entry * BigInt(bps)) / 10_000n;
            const r = closeAccounting({ position, exit, config: BTC_MARKET_CONFIG, pool: pool0 });
            expect(r.outcome === 'liquidated').toBe(isLiquidatable(side, exit, position.bustPrice));
            if (r.outcome === 'liquidated') expect(r.pnlMicro).toBe(-margin);
            else expect(r.pnlMicro).toBeGreaterThan(-margin);
          },
        ),
      );
    });
  });

  it('parks a loss while the queue is not empty', () => {
    const r = closeAccounting({
      position: long,
      exit: 649_350n,
      config: BTC_MARKET_CONFIG,
      pool: { ...pool0, queueNotEmpty: true },
    });
    expect(r.outcome).toBe('closed');
    expect(r.parked).toBe(true);
    expect(r.pool.parkedMicro).toBe(10n * U);
    expect(r.pool.lpMicro).toBe(0n);
    expect(bucketDelta(r.lines, PROTOCOL_OWNER, 'lp_parked')).toBe(10n * U);
  });

  it('takes a loss from margin backed by queued winnings first, cancelling that claim', () => {
    const position = { ...long, marginQueuedMicro: 30n * U };
    const r = closeAccounting({ position, exit: 649_350n, config: BTC_MARKET_CONFIG, pool: pool0 });
    expect(r.queueClaimCancelledMicro).toBe(10n * U);
    expect(r.lossCashMicro).toBe(0n);
    expect(r.account.queuedMicro).toBe(20n * U);
    expect(r.account.freeMicro).toBe(70n * U);
    expect(bucketDelta(r.lines, PROTOCOL_OWNER, 'payout_queue')).toBe(10n * U);
    expect(ledgerSum(r.lines)).toBe(0n);
  });

  it('liquidates: the whole margin to the LP, PAPER minted, pnl = -margin', () => {
    const r = liquidationAccounting({ position: long, pool: { ...pool0, lpMicro: 5n * U } });
    expect(r.pnlMicro).toBe(-100n * U);
    expect(r.pool.lpMicro).toBe(105n * U);
    expect(r.account.lockedMicro).toBe(-100n * U);
    expect(r.account.freeMicro).toBe(0n);
    expect(r.rewardMintedMicro).toBe(10_000n * U);
  });

  it('conserves money over random closes, the whole win fee included (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n * U, max: 10_000n * U }),
        fc.integer({ min: 1, max: 1000 }),
        fc.bigInt({ min: 600_000n, max: 700_000n }),
        fc.bigInt({ min: 0n, max: 10_000n * U }),
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 100n }),
        (margin, leverage, exit, lp, queued, queuedPct) => {
          const position = withBust({
            ...long,
            marginMicro: margin,
            leverage,
            marginQueuedMicro: (margin * queuedPct) / 100n,
          });
          const pool = { ...pool0, lpMicro: lp, queueNotEmpty: queued };
          const r = closeAccounting({ position, exit, config: BTC_MARKET_CONFIG, pool });
          const a = r.account;
          expect(ledgerSum(r.lines)).toBe(0n);
          expect(a.freeMicro + a.queuedMicro + a.lockedMicro).toBe(
            r.paidMicro + r.queuedPayoutMicro - r.lossCashMicro - r.queueClaimCancelledMicro,
          );
          expect(
            r.pool.lpMicro + r.pool.parkedMicro + r.pool.feesPendingMicro - (pool.lpMicro + pool.parkedMicro),
          ).toBe(r.lossCashMicro - r.paidMicro);
          // Every micro-USDC of the fee is either collected now or owed with the queue entry.
          expect(r.feeCollectedMicro + r.feeQueuedMicro).toBe(r.feeMicro);
          expect(bucketDelta(r.lines, PROTOCOL_OWNER, 'fees')).toBe(r.feeCollectedMicro);
          expect(bucketDelta(r.lines, PROTOCOL_OWNER, 'fees_queued')).toBe(r.feeQueuedMicro);
          expect(-bucketDelta(r.lines, PROTOCOL_OWNER, 'payout_queue')).toBe(
            r.queuedPayoutMicro + r.feeQueuedMicro - r.queueClaimCancelledMicro,
          );
          expect(a.freeMicro >= 0n && a.queuedMicro >= 0n).toBe(true);
        },
      ),
    );
  });

  it('balances the books when the LP cannot pay a win: close, then harvests until the queue is paid (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n * U, max: 5_000n * U }),
        fc.integer({ min: 1, max: 1000 }),
        fc.bigInt({ min: 651_000n, max: 700_000n }),
        fc.bigInt({ min: 0n, max: 200n * U }),
        fc.array(fc.bigInt({ min: 1n, max: 300n * U }), { minLength: 1, maxLength: 6 }),
        (margin, leverage, exit, lp, inflows) => {
          const position = withBust({ ...long, marginMicro: margin, leverage });
          const close = closeAccounting({ position, exit, config: BTC_MARKET_CONFIG, pool: { ...pool0, lpMicro: lp } });
          const lines = [...close.lines];
          let pool = close.pool;
          let entry = { id: '1', wallet: W, amountMicro: close.queuedPayoutMicro, feeMicro: close.feeQueuedMicro };
          let queued = close.account.queuedMicro;
          // Losses of others arrive parked; each harvest pays the entry, the trader's part first.
          for (const inflow of [...inflows, entry.amountMicro + entry.feeMicro]) {
            if (entry.amountMicro + entry.feeMicro === 0n) break;
            pool = { ...pool, parkedMicro: pool.parkedMicro + inflow };
            lines.push(
              { owner: '0xloser', bucket: 'locked', amountMicro: -inflow },
              { owner: PROTOCOL_OWNER, bucket: 'lp_parked', amountMicro: inflow },
            );
            const plan = planHarvest(pool, [entry], new Map([[W, queued]]));
            lines.push(...plan.lines);
            pool = plan.pool;
            for (const p of plan.payments) {
              expect(p.feeMicro === 0n || p.amountMicro === entry.amountMicro).toBe(true); // the fee only after the trader's part
              entry = {
                ...entry,
                amountMicro: entry.amountMicro - p.amountMicro,
                feeMicro: entry.feeMicro - p.feeMicro,
              };
              queued -= p.toFreeMicro;
            }
          }
          expect(entry).toMatchObject({ amountMicro: 0n, feeMicro: 0n });
          expect(ledgerSum(lines)).toBe(0n);
          expect(bucketDelta(lines, PROTOCOL_OWNER, 'payout_queue')).toBe(0n);
          expect(bucketDelta(lines, PROTOCOL_OWNER, 'fees_queued')).toBe(0n);
          // The whole fee reached protocol fees, and the trader got the whole payout.
          expect(bucketDelta(lines, PROTOCOL_OWNER, 'fees')).toBe(close.feeMicro);
          expect(pool.feesPendingMicro).toBe(close.feeMicro);
          expect(bucketDelta(lines, W, 'free')).toBe(margin + close.pnlMicro);
          expect(bucketDelta(lines, W, 'queued')).toBe(0n);
        },
      ),
    );
  });
});

describe('harvest and stakers', () => {
  it('pays the queue head first from LP + parked and keeps the rest in the LP once it is empty', () => {
    const entries = [
      { id: '1', wallet: W, amountMicro: 30n * U, feeMicro: 0n },
      { id: '2', wallet: '0xbb', amountMicro: 50n * U, feeMicro: 0n },
    ];
    const plan = planHarvest(
      { ...pool0, lpMicro: 20n * U, parkedMicro: 70n * U, queueNotEmpty: true },
      entries,
      new Map([
        [W, 30n * U],
        ['0xbb', 50n * U],
      ]),
    );
    expect(plan.paidMicro).toBe(80n * U);
    expect(plan.queueCleared).toBe(true);
    expect(plan.pool).toMatchObject({ lpMicro: 10n * U, parkedMicro: 0n, queueNotEmpty: false });
    expect(ledgerSum(plan.lines)).toBe(0n);
  });

  it('pays partly and releases pledged margin when queued winnings back open margin', () => {
    const entries = [{ id: '1', wallet: W, amountMicro: 30n * U, feeMicro: 0n }];
    const plan = planHarvest({ ...pool0, parkedMicro: 25n * U, queueNotEmpty: true }, entries, new Map([[W, 10n * U]]));
    expect(plan.payments).toEqual([
      {
        id: '1',
        wallet: W,
        amountMicro: 25n * U,
        feeMicro: 0n,
        cleared: false,
        toFreeMicro: 10n * U,
        pledgeReleasedMicro: 15n * U,
      },
    ]);
    expect(plan.pool.queueNotEmpty).toBe(true);
    expect(bucketDelta(plan.lines, W, 'free')).toBe(10n * U);
  });

  it("pays an entry's queued win fee into protocol fees after its trader part, head first", () => {
    const entries = [
      { id: '1', wallet: W, amountMicro: 30n * U, feeMicro: 2n * U },
      { id: '2', wallet: '0xbb', amountMicro: 0n, feeMicro: 3n * U },
      { id: '3', wallet: '0xbb', amountMicro: 50n * U, feeMicro: U },
    ];
    const plan = planHarvest(
      { ...pool0, parkedMicro: 31n * U, queueNotEmpty: true, feesPendingMicro: 5n * U },
      entries,
      new Map([[W, 30n * U]]),
    );
    expect(plan.payments).toEqual([
      {
        id: '1',
        wallet: W,
        amountMicro: 30n * U,
        feeMicro: U,
        cleared: false,
        toFreeMicro: 30n * U,
        pledgeReleasedMicro: 0n,
      },
    ]);
    expect(plan.feesCollectedMicro).toBe(U);
    expect(plan.pool).toMatchObject({ lpMicro: 0n, feesPendingMicro: 6n * U, queueNotEmpty: true });
    const next = planHarvest(
      { ...plan.pool, parkedMicro: 100n * U },
      [{ ...entries[0]!, amountMicro: 0n, feeMicro: U }, entries[1]!, entries[2]!],
      new Map([['0xbb', 50n * U]]),
    );
    expect(next.payments.map((p) => [p.id, p.amountMicro, p.feeMicro, p.cleared])).toEqual([
      ['1', 0n, U, true],
      ['2', 0n, 3n * U, true],
      ['3', 50n * U, U, true],
    ]);
    expect(next.pool).toMatchObject({ lpMicro: 45n * U, feesPendingMicro: 11n * U, queueNotEmpty: false });
    expect(bucketDelta(next.lines, PROTOCOL_OWNER, 'fees_queued')).toBe(-5n * U);
    expect(ledgerSum(next.lines)).toBe(0n);
  });

  it('sweeps the LP above the cap through the staking reserve and the pending fees to stakers pro rata', () => {
    const d = distributeToStakers(
      { ...pool0, lpMicro: 5_000_100n * U, feesPendingMicro: 10n * U },
      [
        { id: 'a', weight: 1n },
        { id: 'b', weight: 3n },
      ],
      { lpCapMicro: 5_000_000n * U, feesToStakers: true },
    );
    expect(d.sweptMicro).toBe(100n * U);
    expect(d.reserveDistributedMicro).toBe(100n * U);
    expect(d.feesDistributedMicro).toBe(10n * U);
    expect(d.credits).toEqual([
      { wallet: 'a', amountMicro: 27_500_000n },
      { wallet: 'b', amountMicro: 82_500_000n },
    ]);
    expect(d.pool).toMatchObject({ lpMicro: 5_000_000n * U, stakingReserveMicro: 0n, feesPendingMicro: 0n });
    expect(ledgerSum(d.lines)).toBe(0n);
  });

  it('with no stakers the LP above the cap still leaves the LP: it waits in the staking reserve for the first stakers', () => {
    const cap = { lpCapMicro: 5_000_000n * U, feesToStakers: true };
    const none = distributeToStakers({ ...pool0, lpMicro: 7_000_000n * U, feesPendingMicro: 10n * U }, [], cap);
    expect(none.credits).toEqual([]);
    expect(none.sweptMicro).toBe(2_000_000n * U);
    expect(none.pool).toMatchObject({
      lpMicro: 5_000_000n * U,
      stakingReserveMicro: 2_000_000n * U,
      feesPendingMicro: 10n * U,
    });
    expect(bucketDelta(none.lines, PROTOCOL_OWNER, 'staking_reserve')).toBe(2_000_000n * U);
    expect(ledgerSum(none.lines)).toBe(0n);
    // More losses, still nobody staking: the LP is held at the cap, the reserve grows.
    const again = distributeToStakers({ ...none.pool, lpMicro: 5_500_000n * U }, [], cap);
    expect(again.pool).toMatchObject({ lpMicro: 5_000_000n * U, stakingReserveMicro: 2_500_000n * U });
    // The first stakers get the reserve (truncation remainders stay in it).
    const paid = distributeToStakers(
      again.pool,
      [
        { id: 'a', weight: 1n },
        { id: 'b', weight: 2n },
      ],
      cap,
    );
    expect(paid.sweptMicro).toBe(0n);
    expect(paid.reserveDistributedMicro + paid.pool.stakingReserveMicro).toBe(2_500_000n * U);
    expect(paid.pool.stakingReserveMicro).toBeLessThan(3n);
    expect(paid.credits.reduce((s, c) => s + c.amountMicro, 0n)).toBe(
      paid.reserveDistributedMicro + paid.feesDistributedMicro,
    );
    expect(ledgerSum(paid.lines)).toBe(0n);
  });

  it('never sweeps while the queue is not empty', () => {
    const d = distributeToStakers({ ...pool0, lpMicro: 6_000_000n * U, queueNotEmpty: true }, [], {
      lpCapMicro: 5_000_000n * U,
      feesToStakers: true,
    });
    expect(d.sweptMicro).toBe(0n);
    expect(d.lines).toEqual([]);
  });

  it('splits with truncation and keeps the remainder', () => {
    expect(
      splitProRata(10n, [
        { id: 'a', weight: 1n },
        { id: 'b', weight: 2n },
      ]),
    ).toEqual({
      shares: [
        { id: 'a', amountMicro: 3n },
        { id: 'b', amountMicro: 6n },
      ],
      remainderMicro: 1n,
    });
    expect(splitProRata(10n, [])).toEqual({ shares: [], remainderMicro: 10n });
  });
});

describe('deposits', () => {
  it('refuses under 10 USDC and takes the activation fee from the first deposit', () => {
    expect(evaluateDeposit(9_999_999n, false)).toMatchObject({ accepted: false, reason: 'deposit_below_minimum' });
    expect(evaluateDeposit(10n * U, false)).toEqual({
      accepted: true,
      amountMicro: 10n * U,
      feeMicro: ACTIVATION_FEE_MICRO,
      creditMicro: 9n * U,
    });
    expect(evaluateDeposit(10n * U, true)).toMatchObject({ creditMicro: 10n * U, feeMicro: 0n });
  });
});
