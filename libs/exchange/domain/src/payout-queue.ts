/**
 * Pure arithmetic of the LP and its first-in-first-out payout queue.
 *
 * - A win is paid from the LP; what the LP cannot pay is appended to the queue. Nobody jumps the
 *   queue: while it is not empty a new win is queued whole.
 * - While the queue is not empty, new losses are parked instead of entering the LP.
 * - A harvest pays queue entries head first from the LP plus the parked losses; the head may be paid
 *   partly (it keeps its place with the rest). Whatever is left once the queue is empty enters the LP.
 *
 * Money is conserved: every function returns amounts that add up to what went in.
 */
export interface QueueEntry {
  readonly id: string;
  readonly amountMicro: bigint;
}

export interface QueuePayment {
  readonly id: string;
  readonly amountMicro: bigint;
  /** True when this payment clears the entry. */
  readonly cleared: boolean;
}

export interface PayoutState {
  readonly lpMicro: bigint;
  /** Losses received while the queue was not empty, waiting for the next harvest. */
  readonly parkedMicro: bigint;
  readonly queue: readonly QueueEntry[];
}

export interface QueuePayResult {
  readonly payments: readonly QueuePayment[];
  readonly remaining: readonly QueueEntry[];
  readonly paidMicro: bigint;
  /** Funds left over after paying. */
  readonly fundsAfterMicro: bigint;
}

/** Pays `entries` head first from `fundsMicro`; the last entry reached may be paid partly. */
export function payQueueHeadFirst(fundsMicro: bigint, entries: readonly QueueEntry[]): QueuePayResult {
  if (fundsMicro < 0n) throw new RangeError('Funds must not be negative');
  const payments: QueuePayment[] = [];
  let funds = fundsMicro;
  let index = 0;
  for (; index < entries.length && funds > 0n; index += 1) {
    const entry = entries[index];
    assertEntry(entry);
    const amount = entry.amountMicro <= funds ? entry.amountMicro : funds;
    funds -= amount;
    const cleared = amount === entry.amountMicro;
    payments.push({ id: entry.id, amountMicro: amount, cleared });
    if (!cleared) {
      const rest = { id: entry.id, amountMicro: entry.amountMicro - amount };
      return {
        payments,
        remaining: [rest, ...entries.slice(index + 1)],
        paidMicro: fundsMicro - funds,
        fundsAfterMicro: funds,
      };
    }
  }
  return { payments, remaining: entries.slice(index), paidMicro: fundsMicro - funds, fundsAfterMicro: funds };
}

export interface HarvestResult {
  readonly state: PayoutState;
  readonly payments: readonly QueuePayment[];
  readonly paidMicro: bigint;
}

/** The periodic harvest: pays the queue from LP + parked losses; the rest (if any) stays in the LP. */
export function harvestPayoutQueue(state: PayoutState): HarvestResult {
  const result = payQueueHeadFirst(state.lpMicro + state.parkedMicro, state.queue);
  return {
    state: { lpMicro: result.fundsAfterMicro, parkedMicro: 0n, queue: result.remaining },
    payments: result.payments,
    paidMicro: result.paidMicro,
  };
}

export interface WinSettlementResult {
  readonly state: PayoutState;
  /** Paid to the winner from the LP now. */
  readonly paidMicro: bigint;
  /** Appended to the queue (shown to the trader as "queued"). */
  readonly queuedMicro: bigint;
}

/** Pays a win of `payoutMicro` from the LP; the unpaid rest joins the back of the queue under `id`. */
export function settleWinPayout(state: PayoutState, id: string, payoutMicro: bigint): WinSettlementResult {
  if (payoutMicro < 0n) throw new RangeError('A payout must not be negative');
  const paidMicro = state.queue.length > 0 ? 0n : payoutMicro <= state.lpMicro ? payoutMicro : state.lpMicro;
  const queuedMicro = payoutMicro - paidMicro;
  const queue = queuedMicro > 0n ? [...state.queue, { id, amountMicro: queuedMicro }] : state.queue;
  return { state: { ...state, lpMicro: state.lpMicro - paidMicro, queue }, paidMicro, queuedMicro };
}

export interface LossSettlementResult {
  readonly state: PayoutState;
  /** True when the loss was parked because the queue is not empty. */
  readonly parked: boolean;
}

/** A loss (or liquidated margin) enters the LP, or is parked while the queue is not empty. */
export function settleLossIntoLp(state: PayoutState, lossMicro: bigint): LossSettlementResult {
  if (lossMicro < 0n) throw new RangeError('A loss must not be negative');
  if (state.queue.length > 0) {
    return { state: { ...state, parkedMicro: state.parkedMicro + lossMicro }, parked: true };
  }
  return { state: { ...state, lpMicro: state.lpMicro + lossMicro }, parked: false };
}

/** Total still owed to queued winners. */
export function queuedTotal(queue: readonly QueueEntry[]): bigint {
  return queue.reduce((sum, entry) => sum + entry.amountMicro, 0n);
}

function assertEntry(entry: QueueEntry): void {
  if (entry.amountMicro <= 0n) throw new RangeError(`Queue entry ${entry.id} must have a positive amount`);
}
