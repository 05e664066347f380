import { LedgerLine, PROTOCOL_OWNER, assertBalanced, transfer } from './ledger';
import { sweepLpExcess } from './lp';
import { payQueueHeadFirst } from './payout-queue';
import { PoolState } from './pool-state';
import { splitProRata, Weighted } from './pro-rata';
import { DEFAULT_REWARD_CURVE, nextRewardHighWaterMark, RewardCurveParams } from './reward-mint';

export interface QueuedPayout {
  /** Queue entry id (queue order is id order). */
  readonly id: string;
  readonly wallet: string;
  readonly amountMicro: bigint;
}

export interface HarvestPayment {
  readonly id: string;
  readonly wallet: string;
  readonly amountMicro: bigint;
  readonly cleared: boolean;
  /** Credited to the free balance (moved out of "queued"). */
  readonly toFreeMicro: bigint;
  /** Paid for queued winnings that back open margin: that margin becomes ordinary margin. */
  readonly pledgeReleasedMicro: bigint;
}

export interface HarvestPlan {
  readonly pool: PoolState;
  readonly payments: readonly HarvestPayment[];
  readonly lines: LedgerLine[];
  readonly paidMicro: bigint;
  /** True when every entry given was cleared. */
  readonly queueCleared: boolean;
}

/**
 * The periodic harvest: parked losses join the LP, then the queue is paid head first from it. A
 * payment moves the trader's "queued" amount to "free"; where the queued winnings were already used
 * as margin (`queuedBalances` lower than the entry), the payment only backs that margin with cash.
 * Once the queue is empty the LP keeps the rest.
 *
 * @param queuedBalances each paid wallet's current "queued" account balance
 */
export function planHarvest(
  pool: PoolState,
  entries: readonly QueuedPayout[],
  queuedBalances: ReadonlyMap<string, bigint>,
  curve: RewardCurveParams = DEFAULT_REWARD_CURVE,
): HarvestPlan {
  const lines: LedgerLine[] = [...transfer({ owner: PROTOCOL_OWNER, bucket: 'lp_parked' }, { owner: PROTOCOL_OWNER, bucket: 'lp' }, pool.parkedMicro)];
  const funds = pool.lpMicro + pool.parkedMicro;
  const result = payQueueHeadFirst(funds, entries.map((e) => ({ id: e.id, amountMicro: e.amountMicro })));
  const walletOf = new Map(entries.map((e) => [e.id, e.wallet]));
  const balances = new Map(queuedBalances);
  const payments: HarvestPayment[] = result.payments.map((payment) => {
    const wallet = walletOf.get(payment.id)!;
    const queued = balances.get(wallet) ?? 0n;
    const toFreeMicro = payment.amountMicro <= queued ? payment.amountMicro : queued;
    balances.set(wallet, queued - toFreeMicro);
    lines.push(...transfer({ owner: PROTOCOL_OWNER, bucket: 'lp' }, { owner: PROTOCOL_OWNER, bucket: 'payout_queue' }, payment.amountMicro));
    lines.push(...transfer({ owner: wallet, bucket: 'queued' }, { owner: wallet, bucket: 'free' }, toFreeMicro));
    return { ...payment, wallet, toFreeMicro, pledgeReleasedMicro: payment.amountMicro - toFreeMicro };
  });
  assertBalanced(lines);
  const queueCleared = result.remaining.length === 0;
  const lpMicro = result.fundsAfterMicro;
  return {
    pool: {
      ...pool,
      lpMicro,
      parkedMicro: 0n,
      queueNotEmpty: !queueCleared,
      highWaterMicro: nextRewardHighWaterMark(pool.highWaterMicro, lpMicro, curve),
    },
    payments,
    lines,
    paidMicro: result.paidMicro,
    queueCleared,
  };
}

export interface StakerDistribution {
  readonly pool: PoolState;
  readonly lines: LedgerLine[];
  /** Per wallet: staking rewards credited. */
  readonly credits: ReadonlyArray<{ readonly wallet: string; readonly amountMicro: bigint }>;
  /** LP excess above the cap that went to stakers. */
  readonly sweptMicro: bigint;
  /** Win fees that went to stakers. */
  readonly feesDistributedMicro: bigint;
}

/**
 * Pays stakers pro rata to their staked PAPER: the LP above `lpCapMicro`, and the pending win fees when
 * `feesToStakers`. Truncation remainders stay where they were. With no stakers nothing moves.
 */
export function distributeToStakers(
  pool: PoolState,
  stakers: readonly Weighted[],
  options: { lpCapMicro: bigint; feesToStakers: boolean },
): StakerDistribution {
  const credits = new Map<string, bigint>();
  const lines: LedgerLine[] = [];
  const pay = (bucket: 'lp' | 'fees', amount: bigint): bigint => {
    const split = splitProRata(amount, stakers);
    for (const share of split.shares) {
      credits.set(share.id, (credits.get(share.id) ?? 0n) + share.amountMicro);
      lines.push(...transfer({ owner: PROTOCOL_OWNER, bucket }, { owner: share.id, bucket: 'stakers' }, share.amountMicro));
    }
    return amount - split.remainderMicro;
  };
  const sweptMicro = pool.queueNotEmpty ? 0n : pay('lp', sweepLpExcess(pool.lpMicro, options.lpCapMicro).sweptMicro);
  const feesDistributedMicro = options.feesToStakers ? pay('fees', pool.feesPendingMicro) : 0n;
  assertBalanced(lines);
  return {
    pool: { ...pool, lpMicro: pool.lpMicro - sweptMicro, feesPendingMicro: pool.feesPendingMicro - feesDistributedMicro },
    lines,
    credits: [...credits].map(([wallet, amountMicro]) => ({ wallet, amountMicro })),
    sweptMicro,
    feesDistributedMicro,
  };
}
