import fc from 'fast-check';
import { closeAccounting, liquidationAccounting, SettlingPosition } from './close-accounting';
import { ACTIVATION_FEE_MICRO, evaluateDeposit } from './deposit-rules';
import { distributeToStakers, planHarvest } from './harvest-accounting';
import { bucketDelta, ledgerSum, PROTOCOL_OWNER } from './ledger';
import { BTC_MARKET_CONFIG } from './market-config';
import { openAccounting } from './open-accounting';
import { PoolState } from './pool-state';
import { splitProRata } from './pro-rata';

const U = 1_000_000n;
const W = '0x00000000000000000000000000000000000000aa';
const pool0: PoolState = { lpMicro: 0n, parkedMicro: 0n, highWaterMicro: 0n, queueNotEmpty: false, feesPendingMicro: 0n };
const long: SettlingPosition = { wallet: W, side: 'long', entryPrice: 650_000n, marginMicro: 100n * U, leverage: 100, marginQueuedMicro: 0n };

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
  it('pays a win from the LP, queues the rest and collects the fee only from what the LP has left', () => {
    const r = closeAccounting({ position: long, exit: 656_500n, config: BTC_MARKET_CONFIG, pool: { ...pool0, lpMicro: 50n * U } });
    expect(r.pnlMicro).toBe(86_383_978n);
    expect(r.paidMicro).toBe(50n * U);
    expect(r.queuedPayoutMicro).toBe(86_383_978n - 50n * U);
    expect(r.feeCollectedMicro).toBe(0n);
    expect(r.pool.lpMicro).toBe(0n);
    expect(r.pool.queueNotEmpty).toBe(true);
    expect(r.account).toEqual({ freeMicro: 150n * U, lockedMicro: -100n * U, queuedMicro: 36_383_978n, realizedPnlMicro: 86_383_978n, paperMicro: 0n });
    expect(ledgerSum(r.lines)).toBe(0n);
  });

  it('collects the win fee into protocol fees when the LP can pay everything', () => {
    const r = closeAccounting({ position: long, exit: 656_500n, config: BTC_MARKET_CONFIG, pool: { ...pool0, lpMicro: 1000n * U } });
    expect(r.feeCollectedMicro).toBe(1_762_938n);
    expect(r.pool.lpMicro).toBe(1000n * U - 86_383_978n - 1_762_938n);
    expect(r.pool.feesPendingMicro).toBe(1_762_938n);
    expect(bucketDelta(r.lines, PROTOCOL_OWNER, 'fees')).toBe(1_762_938n);
  });

  it('puts a loss into the LP and mints 100 PAPER per USDC lost below the threshold', () => {
    const r = closeAccounting({ position: long, exit: 643_500n, config: BTC_MARKET_CONFIG, pool: pool0 });
    expect(r.pnlMicro).toBe(-100n * U);
    expect(r.lossCashMicro).toBe(100n * U);
    expect(r.pool.lpMicro).toBe(100n * U);
    expect(r.rewardMintedMicro).toBe(100n * 100n * U);
    expect(r.account.freeMicro).toBe(0n);
  });

  it('parks a loss while the queue is not empty', () => {
    const r = closeAccounting({ position: long, exit: 649_350n, config: BTC_MARKET_CONFIG, pool: { ...pool0, queueNotEmpty: true } });
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

  it('conserves money over random closes (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n * U, max: 10_000n * U }),
        fc.integer({ min: 1, max: 1000 }),
        fc.bigInt({ min: 600_000n, max: 700_000n }),
        fc.bigInt({ min: 0n, max: 10_000n * U }),
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 100n }),
        (margin, leverage, exit, lp, queued, queuedPct) => {
          const position = { ...long, marginMicro: margin, leverage, marginQueuedMicro: (margin * queuedPct) / 100n };
          const pool = { ...pool0, lpMicro: queued ? 0n : lp, queueNotEmpty: queued };
          const r = closeAccounting({ position, exit, config: BTC_MARKET_CONFIG, pool });
          const a = r.account;
          return (
            ledgerSum(r.lines) === 0n &&
            a.freeMicro + a.queuedMicro + a.lockedMicro === r.paidMicro + r.queuedPayoutMicro - r.lossCashMicro - r.queueClaimCancelledMicro &&
            r.pool.lpMicro + r.pool.parkedMicro + r.pool.feesPendingMicro - (pool.lpMicro + pool.parkedMicro) === r.lossCashMicro - r.paidMicro &&
            a.freeMicro >= 0n && a.queuedMicro >= 0n
          );
        },
      ),
    );
  });
});

describe('harvest and stakers', () => {
  it('pays the queue head first from LP + parked and keeps the rest in the LP once it is empty', () => {
    const entries = [
      { id: '1', wallet: W, amountMicro: 30n * U },
      { id: '2', wallet: '0xbb', amountMicro: 50n * U },
    ];
    const plan = planHarvest({ ...pool0, lpMicro: 20n * U, parkedMicro: 70n * U, queueNotEmpty: true }, entries, new Map([[W, 30n * U], ['0xbb', 50n * U]]));
    expect(plan.paidMicro).toBe(80n * U);
    expect(plan.queueCleared).toBe(true);
    expect(plan.pool).toMatchObject({ lpMicro: 10n * U, parkedMicro: 0n, queueNotEmpty: false });
    expect(ledgerSum(plan.lines)).toBe(0n);
  });

  it('pays partly and releases pledged margin when queued winnings back open margin', () => {
    const entries = [{ id: '1', wallet: W, amountMicro: 30n * U }];
    const plan = planHarvest({ ...pool0, parkedMicro: 25n * U, queueNotEmpty: true }, entries, new Map([[W, 10n * U]]));
    expect(plan.payments).toEqual([{ id: '1', wallet: W, amountMicro: 25n * U, cleared: false, toFreeMicro: 10n * U, pledgeReleasedMicro: 15n * U }]);
    expect(plan.pool.queueNotEmpty).toBe(true);
    expect(bucketDelta(plan.lines, W, 'free')).toBe(10n * U);
  });

  it('sweeps the LP above the cap and the pending fees to stakers pro rata', () => {
    const d = distributeToStakers(
      { ...pool0, lpMicro: 5_000_100n * U, feesPendingMicro: 10n * U },
      [{ id: 'a', weight: 1n }, { id: 'b', weight: 3n }],
      { lpCapMicro: 5_000_000n * U, feesToStakers: true },
    );
    expect(d.sweptMicro).toBe(100n * U);
    expect(d.feesDistributedMicro).toBe(10n * U);
    expect(d.credits).toEqual([{ wallet: 'a', amountMicro: 27_500_000n }, { wallet: 'b', amountMicro: 82_500_000n }]);
    expect(d.pool.lpMicro).toBe(5_000_000n * U);
    expect(ledgerSum(d.lines)).toBe(0n);
  });

  it('splits with truncation and keeps the remainder', () => {
    expect(splitProRata(10n, [{ id: 'a', weight: 1n }, { id: 'b', weight: 2n }])).toEqual({
      shares: [{ id: 'a', amountMicro: 3n }, { id: 'b', amountMicro: 6n }],
      remainderMicro: 1n,
    });
    expect(splitProRata(10n, [])).toEqual({ shares: [], remainderMicro: 10n });
  });
});

describe('deposits', () => {
  it('refuses under 10 USDC and takes the activation fee from the first deposit', () => {
    expect(evaluateDeposit(9_999_999n, false)).toMatchObject({ accepted: false, reason: 'deposit_below_minimum' });
    expect(evaluateDeposit(10n * U, false)).toEqual({ accepted: true, amountMicro: 10n * U, feeMicro: ACTIVATION_FEE_MICRO, creditMicro: 9n * U });
    expect(evaluateDeposit(10n * U, true)).toMatchObject({ creditMicro: 10n * U, feeMicro: 0n });
  });
});
