import { nextRewardHighWaterMark, RewardCurveParams, DEFAULT_REWARD_CURVE, rewardMintAmount } from './reward-mint';
import { LedgerLine, PROTOCOL_OWNER, transfer } from './ledger';

/**
 * The protocol side of settlement: the LP, losses parked while the payout queue is not empty, the
 * reward high-water mark, the win fees not yet distributed and the staking reserve (LP above the cap
 * waiting for stakers). While the queue is not empty new losses are parked and new wins (and their
 * fees) are queued whole; the harvest pays the queue from the LP and the parked losses.
 */
export interface PoolState {
  readonly lpMicro: bigint;
  readonly parkedMicro: bigint;
  /** H of the reward curve: high-water mark of LP growth past the threshold. */
  readonly highWaterMicro: bigint;
  /** Unpaid winnings wait in the payout queue. */
  readonly queueNotEmpty: boolean;
  /** Win fees collected and not yet distributed. */
  readonly feesPendingMicro: bigint;
  /**
   * LP excess above the cap swept out of the LP and not yet paid to stakers (there were none, or truncation
   * remainders).
   */
  readonly stakingReserveMicro: bigint;
}

export interface LossIntoPool {
  readonly pool: PoolState;
  readonly lines: LedgerLine[];
  readonly parked: boolean;
  /** PAPER (micro) minted to the loser for `lossMicro` at the rate before the loss entered the LP. */
  readonly rewardMintedMicro: bigint;
}

/**
 * A trader loses `lossMicro` in total, of which `cashMicro` is cash taken from `from` (the rest was
 * margin backed by the trader's own queued winnings, which the caller cancels from the queue). The
 * cash enters the LP, or is parked while the queue is not empty. The reward mint uses the LP balance
 * before the loss; the high-water mark is raised after it.
 */
export function lossIntoPool(
  pool: PoolState,
  from: { owner: string; bucket: 'locked' },
  lossMicro: bigint,
  cashMicro: bigint,
  curve: RewardCurveParams = DEFAULT_REWARD_CURVE,
): LossIntoPool {
  if (cashMicro < 0n || cashMicro > lossMicro) throw new RangeError('Cash part of a loss must be within the loss');
  const rewardMintedMicro = rewardMintAmount(lossMicro, pool.lpMicro, pool.highWaterMicro, curve);
  if (pool.queueNotEmpty) {
    return {
      pool: { ...pool, parkedMicro: pool.parkedMicro + cashMicro },
      lines: transfer(from, { owner: PROTOCOL_OWNER, bucket: 'lp_parked' }, cashMicro),
      parked: true,
      rewardMintedMicro,
    };
  }
  const lpMicro = pool.lpMicro + cashMicro;
  return {
    pool: { ...pool, lpMicro, highWaterMicro: nextRewardHighWaterMark(pool.highWaterMicro, lpMicro, curve) },
    lines: transfer(from, { owner: PROTOCOL_OWNER, bucket: 'lp' }, cashMicro),
    parked: false,
    rewardMintedMicro,
  };
}
