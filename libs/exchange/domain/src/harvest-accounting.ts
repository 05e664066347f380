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
  /** Still owed to the trader. */
  readonly amountMicro: bigint;
  /** Win fee still owed to protocol fees with this entry (paid after the trader's part). */
  readonly feeMicro: bigint;
}

export interface HarvestPayment {
  readonly id: string;
  readonly wallet: string;
  /** Paid to the trader. */
  readonly amountMicro: bigint;
  /** Paid to protocol fees (the entry's queued win fee, after the trader's part). */
  readonly feeMicro: bigint;
  /** True when this payment clears the entry (trader part and fee). */
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
  /** Paid in total (traders and fees). */
  readonly paidMicro: bigint;
  /** Of which queued win fees collected into protocol fees. */
  readonly feesCollectedMicro: bigint;
  /** True when every entry given was cleared. */
  readonly queueCleared: boolean;
}

/**
 * The periodic harvest: parked losses join the LP, then the queue is paid head first from it. Within an
 * entry the trader's part is paid before its queued win fee. A payment moves the trader's "queued"
 * amount to "free"; where the queued winnings were already used as margin (`queuedBalances` lower than
 * the entry), the payment only backs that margin with cash. A fee payment moves `fees_queued` to
 * `fees`. Once the queue is empty the LP keeps the rest.
 *
 * @param queuedBalances each paid wallet's current "queued" account balance
 */
export function planHarvest(
  pool: PoolState,
  entries: readonly QueuedPayout[],
  queuedBalances: ReadonlyMap<string, bigint>,
  curve: RewardCurveParams = DEFAULT_REWARD_CURVE,
): HarvestPlan {
  const lines: LedgerLine[] = [
    ...transfer(
      { owner: PROTOCOL_OWNER, bucket: 'lp_parked' },
      { owner: PROTOCOL_OWNER, bucket: 'lp' },
      pool.parkedMicro,
    ),
  ];
  const funds = pool.lpMicro + pool.parkedMicro;
  const result = payQueueHeadFirst(
    funds,
    entries.map((e) => ({ id: e.id, amountMicro: e.amountMicro + e.feeMicro })),
  );
  const byId = new Map(entries.map((e) => [e.id, e]));
  const balances = new Map(queuedBalances);
  let feesCollectedMicro = 0n;
  const payments: HarvestPayment[] = result.payments.map((payment) => {
    const entry = byId.get(payment.id)!;
    const wallet = entry.wallet;
    const toTrader = payment.amountMicro <= entry.amountMicro ? payment.amountMicro : entry.amountMicro;
    const toFees = payment.amountMicro - toTrader;
    const queued = balances.get(wallet) ?? 0n;
    const toFreeMicro = toTrader <= queued ? toTrader : queued;
    balances.set(wallet, queued - toFreeMicro);
    feesCollectedMicro += toFees;
    lines.push(
      ...transfer(
        { owner: PROTOCOL_OWNER, bucket: 'lp' },
        { owner: PROTOCOL_OWNER, bucket: 'payout_queue' },
        payment.amountMicro,
      ),
    );
    lines.push(...transfer({ owner: wallet, bucket: 'queued' }, { owner: wallet, bucket: 'free' }, toFreeMicro));
    lines.push(
      ...transfer({ owner: PROTOCOL_OWNER, bucket: 'fees_queued' }, { owner: PROTOCOL_OWNER, bucket: 'fees' }, toFees),
    );
    return {
      id: payment.id,
      wallet,
      amountMicro: toTrader,
      feeMicro: toFees,
      cleared: payment.cleared,
      toFreeMicro,
      pledgeReleasedMicro: toTrader - toFreeMicro,
    };
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
      feesPendingMicro: pool.feesPendingMicro + feesCollectedMicro,
    },
    payments,
    lines,
    paidMicro: result.paidMicro,
    feesCollectedMicro,
    queueCleared,
  };
}

export interface StakerDistribution {
  readonly pool: PoolState;
  readonly lines: LedgerLine[];
  /** Per wallet: staking rewards credited. */
  readonly credits: ReadonlyArray<{ readonly wallet: string; readonly amountMicro: bigint }>;
  /** LP excess above the cap moved out of the LP into the staking reserve by this run. */
  readonly sweptMicro: bigint;
  /** Staking reserve (LP excess, this run's and earlier) paid to stakers. */
  readonly reserveDistributedMicro: bigint;
  /** Win fees that went to stakers. */
  readonly feesDistributedMicro: bigint;
}

/**
 * The LP cap and the stakers' share, run after each harvest:
 * 1. While the payout queue is empty, the LP above `lpCapMicro` leaves the LP for the staking reserve,
 *    whether or not anybody stakes: the LP never grows past the cap.
 * 2. With stakers, the staking reserve and (when `feesToStakers`) the pending win fees are paid to them
 *    pro rata to their staked PAPER. Truncation remainders stay in the reserve or in the fees. With no
 *    stakers both wait, and go to the first stakers there are.
 */
export function distributeToStakers(
  pool: PoolState,
  stakers: readonly Weighted[],
  options: { lpCapMicro: bigint; feesToStakers: boolean },
): StakerDistribution {
  const credits = new Map<string, bigint>();
  const lines: LedgerLine[] = [];
  const pay = (bucket: 'staking_reserve' | 'fees', amount: bigint): bigint => {
    const split = splitProRata(amount, stakers);
    for (const share of split.shares) {
      credits.set(share.id, (credits.get(share.id) ?? 0n) + share.amountMicro);
      lines.push(
        ...transfer({ owner: PROTOCOL_OWNER, bucket }, { owner: share.id, bucket: 'stakers' }, share.amountMicro),
      );
    }
    return amount - split.remainderMicro;
  };
  const sweptMicro = pool.queueNotEmpty ? 0n : sweepLpExcess(pool.lpMicro, options.lpCapMicro).sweptMicro;
  lines.push(
    ...transfer(
      { owner: PROTOCOL_OWNER, bucket: 'lp' },
      { owner: PROTOCOL_OWNER, bucket: 'staking_reserve' },
      sweptMicro,
    ),
  );
  const reserve = pool.stakingReserveMicro + sweptMicro;
  const reserveDistributedMicro = pay('staking_reserve', reserve);
  const feesDistributedMicro = options.feesToStakers ? pay('fees', pool.feesPendingMicro) : 0n;
  assertBalanced(lines);
  return {
    pool: {
      ...pool,
      lpMicro: pool.lpMicro - sweptMicro,
      stakingReserveMicro: reserve - reserveDistributedMicro,
      feesPendingMicro: pool.feesPendingMicro - feesDistributedMicro,
    },
    lines,
    credits: [...credits].map(([wallet, amountMicro]) => ({ wallet, amountMicro })),
    sweptMicro,
    reserveDistributedMicro,
    feesDistributedMicro,
  };
}
