import { LedgerLine, PROTOCOL_OWNER, assertBalanced, transfer } from './ledger';
import { MarketConfig } from './market-config';
import { PoolState, lossIntoPool } from './pool-state';
import { DEFAULT_REWARD_CURVE, RewardCurveParams } from './reward-mint';
import { SettlementBreakdown, settle } from './settlement';
import { Side } from './types';

/** An open position as settlement needs it. */
export interface SettlingPosition {
  readonly wallet: string;
  readonly side: Side;
  /** Integer at the market price scale. */
  readonly entryPrice: bigint;
  readonly marginMicro: bigint;
  readonly leverage: number;
  /**
   * Part of the margin still backed by the trader's queued winnings (margin may be taken from queued
   * winnings; that part returns to "queued", never to the withdrawable balance, so nobody jumps the queue).
   */
  readonly marginQueuedMicro: bigint;
}

/** Change of the trader's account columns. */
export interface AccountDelta {
  readonly freeMicro: bigint;
  readonly lockedMicro: bigint;
  readonly queuedMicro: bigint;
  readonly realizedPnlMicro: bigint;
  readonly paperMicro: bigint;
}

export interface PositionAccounting {
  /** `null` for a liquidation. */
  readonly settlement: SettlementBreakdown | null;
  /** Settled PnL: the payout of a win (queued part included), minus the loss otherwise. */
  readonly pnlMicro: bigint;
  readonly pool: PoolState;
  readonly lines: LedgerLine[];
  readonly account: AccountDelta;
  /** Paid to the trader from the LP now. */
  readonly paidMicro: bigint;
  /** Appended to the payout queue for this position. */
  readonly queuedPayoutMicro: bigint;
  /** Win fee charged (settlement) and the part the LP could pay into protocol fees. */
  readonly feeMicro: bigint;
  readonly feeCollectedMicro: bigint;
  /** Loss paid in cash into the LP (or parked). */
  readonly lossCashMicro: bigint;
  /** Loss paid by cancelling the trader's own queued winnings (remove it from their queue entries). */
  readonly queueClaimCancelledMicro: bigint;
  readonly parked: boolean;
  readonly rewardMintedMicro: bigint;
}

const locked = (wallet: string) => ({ owner: wallet, bucket: 'locked' as const });

/**
 * Settles a close at `exit` (the mid) with the win curve and books it: margin back (the queued-backed
 * part to "queued"), a win paid from the LP with the unpaid rest queued and the win fee to protocol
 * fees, a loss into the LP (parked while the queue is not empty) with the reward token minted.
 */
export function closeAccounting(input: {
  position: SettlingPosition;
  exit: bigint;
  config: Pick<MarketConfig, 'deadbandDivisor' | 'winCurve'>;
  pool: PoolState;
  rewardCurve?: RewardCurveParams;
}): PositionAccounting {
  const { position: p, pool } = input;
  const settlement = settle({ side: p.side, entry: p.entryPrice, exit: input.exit, marginMicro: p.marginMicro, leverage: p.leverage, config: input.config });
  if (!settlement.isWin) {
    return { ...lossAccounting(p, settlement.lossMicro, pool, input.rewardCurve), settlement, pnlMicro: settlement.pnlMicro };
  }
  const w = p.wallet;
  const lines: LedgerLine[] = [
    ...transfer(locked(w), { owner: w, bucket: 'free' }, p.marginMicro - p.marginQueuedMicro),
    ...transfer(locked(w), { owner: w, bucket: 'queued' }, p.marginQueuedMicro),
  ];
  const payout = settlement.payoutMicro;
  const paidMicro = pool.queueNotEmpty ? 0n : payout <= pool.lpMicro ? payout : pool.lpMicro;
  const queuedPayoutMicro = payout - paidMicro;
  lines.push(...transfer({ owner: PROTOCOL_OWNER, bucket: 'lp' }, { owner: w, bucket: 'free' }, paidMicro));
  lines.push(...transfer({ owner: PROTOCOL_OWNER, bucket: 'payout_queue' }, { owner: w, bucket: 'queued' }, queuedPayoutMicro));
  const lpAfterPayout = pool.lpMicro - paidMicro;
  const feeCollectedMicro = settlement.feeMicro <= lpAfterPayout ? settlement.feeMicro : lpAfterPayout;
  lines.push(...transfer({ owner: PROTOCOL_OWNER, bucket: 'lp' }, { owner: PROTOCOL_OWNER, bucket: 'fees' }, feeCollectedMicro));
  assertBalanced(lines);
  return {
    settlement,
    pnlMicro: payout,
    pool: {
      ...pool,
      lpMicro: lpAfterPayout - feeCollectedMicro,
      queueNotEmpty: pool.queueNotEmpty || queuedPayoutMicro > 0n,
      feesPendingMicro: pool.feesPendingMicro + feeCollectedMicro,
    },
    lines,
    account: {
      freeMicro: p.marginMicro - p.marginQueuedMicro + paidMicro,
      lockedMicro: -p.marginMicro,
      queuedMicro: p.marginQueuedMicro + queuedPayoutMicro,
      realizedPnlMicro: payout,
      paperMicro: 0n,
    },
    paidMicro,
    queuedPayoutMicro,
    feeMicro: settlement.feeMicro,
    feeCollectedMicro,
    lossCashMicro: 0n,
    queueClaimCancelledMicro: 0n,
    parked: false,
    rewardMintedMicro: 0n,
  };
}

/** Liquidation at the mark: the whole margin is lost to the LP (parked while the queue is not empty). */
export function liquidationAccounting(input: { position: SettlingPosition; pool: PoolState; rewardCurve?: RewardCurveParams }): PositionAccounting {
  const result = lossAccounting(input.position, input.position.marginMicro, input.pool, input.rewardCurve);
  return { ...result, settlement: null, pnlMicro: -input.position.marginMicro };
}

function lossAccounting(
  p: SettlingPosition,
  lossMicro: bigint,
  pool: PoolState,
  curve: RewardCurveParams = DEFAULT_REWARD_CURVE,
): Omit<PositionAccounting, 'settlement' | 'pnlMicro'> {
  if (lossMicro < 0n || lossMicro > p.marginMicro) throw new RangeError('A loss must be within the margin');
  if (p.marginQueuedMicro < 0n || p.marginQueuedMicro > p.marginMicro) throw new RangeError('Queued-backed margin must be within the margin');
  const w = p.wallet;
  // The queued-backed part of the margin absorbs the loss first; it is paid by cancelling queued winnings.
  const claimLoss = lossMicro <= p.marginQueuedMicro ? lossMicro : p.marginQueuedMicro;
  const cashLoss = lossMicro - claimLoss;
  const backToQueued = p.marginQueuedMicro - claimLoss;
  const backToFree = p.marginMicro - p.marginQueuedMicro - cashLoss;
  const intoPool = lossIntoPool(pool, locked(w), lossMicro, cashLoss, curve);
  const lines: LedgerLine[] = [
    ...transfer(locked(w), { owner: w, bucket: 'free' }, backToFree),
    ...transfer(locked(w), { owner: w, bucket: 'queued' }, backToQueued),
    ...intoPool.lines,
    ...transfer(locked(w), { owner: PROTOCOL_OWNER, bucket: 'payout_queue' }, claimLoss),
  ];
  assertBalanced(lines);
  return {
    pool: intoPool.pool,
    lines,
    account: {
      freeMicro: backToFree,
      lockedMicro: -p.marginMicro,
      queuedMicro: backToQueued,
      realizedPnlMicro: -lossMicro,
      paperMicro: intoPool.rewardMintedMicro,
    },
    paidMicro: 0n,
    queuedPayoutMicro: 0n,
    feeMicro: 0n,
    feeCollectedMicro: 0n,
    lossCashMicro: cashLoss,
    queueClaimCancelledMicro: claimLoss,
    parked: intoPool.parked,
    rewardMintedMicro: intoPool.rewardMintedMicro,
  };
}
