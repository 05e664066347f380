import { LedgerLine, PROTOCOL_OWNER, assertBalanced, transfer } from './ledger';
import { MarketConfig } from './market-config';
import { PoolState, lossIntoPool } from './pool-state';
import { DEFAULT_REWARD_CURVE, RewardCurveParams } from './reward-mint';
import { outcomeAtExit } from './position-calc';
import { SettlementBreakdown } from './settlement';
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
  /**
   * The position's bust price (as stored at open, integer at the market price scale). A settlement at a
   * mark at or past it is a liquidation: the whole margin is lost, whatever the win curve would give.
   */
  readonly bustPrice: bigint;
}

/** How a position ended: closed with the win curve, or liquidated (the mark was at or past its bust price). */
export type SettlementOutcome = 'closed' | 'liquidated';

/** Change of the trader's account columns. */
export interface AccountDelta {
  readonly freeMicro: bigint;
  readonly lockedMicro: bigint;
  readonly queuedMicro: bigint;
  readonly realizedPnlMicro: bigint;
  readonly paperMicro: bigint;
}

/** Two changes of the same account as one. */
export function addDelta(a: AccountDelta | undefined, b: AccountDelta): AccountDelta {
  if (!a) return b;
  return {
    freeMicro: a.freeMicro + b.freeMicro,
    lockedMicro: a.lockedMicro + b.lockedMicro,
    queuedMicro: a.queuedMicro + b.queuedMicro,
    realizedPnlMicro: a.realizedPnlMicro + b.realizedPnlMicro,
    paperMicro: a.paperMicro + b.paperMicro,
  };
}

export interface PositionAccounting {
  /** `liquidated` when the exit was at or past the bust price (record the position as liquidated). */
  readonly outcome: SettlementOutcome;
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
  /**
   * Win fee charged (settlement); the part the LP paid into protocol fees now; and the rest, queued with
   * the winner's payout-queue entry and collected when the harvest pays that entry
   * (`feeMicro = feeCollectedMicro + feeQueuedMicro`).
   */
  readonly feeMicro: bigint;
  readonly feeCollectedMicro: bigint;
  readonly feeQueuedMicro: bigint;
  /** Loss paid in cash into the LP (or parked). */
  readonly lossCashMicro: bigint;
  /** Loss paid by cancelling the trader's own queued winnings (remove it from their queue entries). */
  readonly queueClaimCancelledMicro: bigint;
  readonly parked: boolean;
  readonly rewardMintedMicro: bigint;
}

const locked = (wallet: string) => ({ owner: wallet, bucket: 'locked' as const });

/**
 * Settles a close at `exit` (the mid) and books it. This is the one place that decides how a position
 * ends: at or past its bust price it is a liquidation ({@link liquidationAccounting}: the whole margin
 * is lost, PAPER minted as for a liquidation); otherwise the win curve applies: margin back (the
 * queued-backed part to "queued"), a win paid from the LP with the unpaid rest queued, a loss into the
 * LP (parked while the queue is not empty) with the reward token minted.
 *
 * The win fee is owed by the LP to protocol fees on top of the payout, and is paid after the trader:
 * what the LP has left after paying the trader goes to the fee now; the rest of the fee joins the
 * winner's payout-queue entry and is collected when the harvest pays that entry (trader part first).
 * While the queue is not empty, payout and fee are queued whole. No micro-USDC is dropped.
 */
export function closeAccounting(input: {
  position: SettlingPosition;
  exit: bigint;
  config: Pick<MarketConfig, 'deadbandDivisor' | 'winCurve'>;
  pool: PoolState;
  rewardCurve?: RewardCurveParams;
}): PositionAccounting {
  const { position: p, pool } = input;
  const outcome = outcomeAtExit({
    side: p.side,
    marginMicro: p.marginMicro,
    leverage: p.leverage,
    entryPrice: p.entryPrice,
    exitPrice: input.exit,
    bust: p.bustPrice,
    config: input.config,
  });
  const settlement = outcome.settlement;
  if (outcome.liquidated || !settlement) {
    return liquidationAccounting({ position: p, pool, rewardCurve: input.rewardCurve });
  }
  if (!settlement.isWin) {
    return {
      ...lossAccounting(p, settlement.lossMicro, pool, input.rewardCurve),
      outcome: 'closed',
      settlement,
      pnlMicro: settlement.pnlMicro,
    };
  }
  const w = p.wallet;
  const lines: LedgerLine[] = [
    ...transfer(locked(w), { owner: w, bucket: 'free' }, p.marginMicro - p.marginQueuedMicro),
    ...transfer(locked(w), { owner: w, bucket: 'queued' }, p.marginQueuedMicro),
  ];
  const payout = settlement.payoutMicro;
  const fee = settlement.feeMicro;
  const payable = pool.queueNotEmpty ? 0n : pool.lpMicro;
  const paidMicro = min(payout, payable);
  const feeCollectedMicro = min(fee, payable - paidMicro);
  const queuedPayoutMicro = payout - paidMicro;
  const feeQueuedMicro = fee - feeCollectedMicro;
  lines.push(...transfer({ owner: PROTOCOL_OWNER, bucket: 'lp' }, { owner: w, bucket: 'free' }, paidMicro));
  lines.push(
    ...transfer({ owner: PROTOCOL_OWNER, bucket: 'payout_queue' }, { owner: w, bucket: 'queued' }, queuedPayoutMicro),
  );
  lines.push(
    ...transfer({ owner: PROTOCOL_OWNER, bucket: 'lp' }, { owner: PROTOCOL_OWNER, bucket: 'fees' }, feeCollectedMicro),
  );
  lines.push(
    ...transfer(
      { owner: PROTOCOL_OWNER, bucket: 'payout_queue' },
      { owner: PROTOCOL_OWNER, bucket: 'fees_queued' },
      feeQueuedMicro,
    ),
  );
  assertBalanced(lines);
  return {
    outcome: 'closed',
    settlement,
    pnlMicro: payout,
    pool: {
      ...pool,
      lpMicro: pool.lpMicro - paidMicro - feeCollectedMicro,
      queueNotEmpty: pool.queueNotEmpty || queuedPayoutMicro > 0n || feeQueuedMicro > 0n,
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
    feeMicro: fee,
    feeCollectedMicro,
    feeQueuedMicro,
    lossCashMicro: 0n,
    queueClaimCancelledMicro: 0n,
    parked: false,
    rewardMintedMicro: 0n,
  };
}

/**
 * Liquidation: the whole margin is lost to the LP (parked while the queue is not empty), PAPER minted
 * for it, pnl = -margin. The liquidator calls it for positions `isLiquidatable` at the mark; a close at
 * or past the bust price gets it from {@link closeAccounting}.
 */
export function liquidationAccounting(input: {
  position: SettlingPosition;
  pool: PoolState;
  rewardCurve?: RewardCurveParams;
}): PositionAccounting {
  const result = lossAccounting(input.position, input.position.marginMicro, input.pool, input.rewardCurve);
  return { ...result, outcome: 'liquidated', settlement: null, pnlMicro: -input.position.marginMicro };
}

function lossAccounting(
  p: SettlingPosition,
  lossMicro: bigint,
  pool: PoolState,
  curve: RewardCurveParams = DEFAULT_REWARD_CURVE,
): Omit<PositionAccounting, 'outcome' | 'settlement' | 'pnlMicro'> {
  if (lossMicro < 0n || lossMicro > p.marginMicro) throw new RangeError('A loss must be within the margin');
  if (p.marginQueuedMicro < 0n || p.marginQueuedMicro > p.marginMicro)
    throw new RangeError('Queued-backed margin must be within the margin');
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
    feeQueuedMicro: 0n,
    lossCashMicro: cashLoss,
    queueClaimCancelledMicro: claimLoss,
    parked: intoPool.parked,
    rewardMintedMicro: intoPool.rewardMintedMicro,
  };
}

function min(a: bigint, b: bigint): bigint {
  return a <= b ? a : b;
}
