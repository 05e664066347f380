/**
 * Double-entry ledger lines. Every money movement of the exchange is a set of lines sharing one
 * transaction id whose amounts sum to zero. `owner` is a wallet (lower-case) for account buckets and
 * {@link PROTOCOL_OWNER} for protocol buckets.
 *
 * Account buckets: `free` (withdrawable), `locked` (margin of open positions), `queued` (winnings waiting
 * in the payout queue), `stakers` (staking rewards credited to the wallet).
 * Protocol buckets: `lp` (the house LP), `lp_parked` (losses received while the queue is not empty),
 * `fees` (win fees not yet distributed), `fees_queued` (win fees the LP still owes, waiting in the payout
 * queue with their winner's entry), `payout_queue` (what the LP owes queued winners and queued fees,
 * negative), `staking_reserve` (LP above the cap waiting for stakers), `deposits` (money that came in
 * from chain, negative), `withdrawals` (money that left to chain), `activation_fees`.
 */
export type LedgerBucketName =
  | 'free'
  | 'locked'
  | 'queued'
  | 'stakers'
  | 'lp'
  | 'lp_parked'
  | 'fees'
  | 'fees_queued'
  | 'payout_queue'
  | 'staking_reserve'
  | 'deposits'
  | 'withdrawals'
  | 'activation_fees';

export const PROTOCOL_OWNER = 'protocol';

export interface LedgerLine {
  readonly owner: string;
  readonly bucket: LedgerBucketName;
  readonly amountMicro: bigint;
}

/** Lines of one transfer: `amountMicro` leaves `from` and enters `to`. A zero amount yields no lines. */
export function transfer(
  from: { owner: string; bucket: LedgerBucketName },
  to: { owner: string; bucket: LedgerBucketName },
  amountMicro: bigint,
): LedgerLine[] {
  if (amountMicro < 0n) throw new RangeError(`A transfer must not be negative, got ${amountMicro}`);
  if (amountMicro === 0n) return [];
  return [
    { owner: from.owner, bucket: from.bucket, amountMicro: -amountMicro },
    { owner: to.owner, bucket: to.bucket, amountMicro },
  ];
}

/** Sum of the lines' amounts (zero for a balanced set). */
export function ledgerSum(lines: readonly LedgerLine[]): bigint {
  return lines.reduce((sum, line) => sum + line.amountMicro, 0n);
}

/** Throws unless the lines sum to zero. */
export function assertBalanced(lines: readonly LedgerLine[]): void {
  const sum = ledgerSum(lines);
  if (sum !== 0n) throw new Error(`Unbalanced ledger transaction (sum ${sum})`);
}

/** Merges lines with the same owner and bucket and drops those that cancel out. */
export function compactLines(lines: readonly LedgerLine[]): LedgerLine[] {
  const totals = new Map<string, LedgerLine>();
  for (const line of lines) {
    const key = `${line.owner}\u0000${line.bucket}`;
    const prev = totals.get(key);
    totals.set(key, { ...line, amountMicro: (prev?.amountMicro ?? 0n) + line.amountMicro });
  }
  return [...totals.values()].filter((line) => line.amountMicro !== 0n);
}

/** The net change of one owner's bucket in a set of lines. */
export function bucketDelta(lines: readonly LedgerLine[], owner: string, bucket: LedgerBucketName): bigint {
  return lines.reduce((sum, l) => (l.owner === owner && l.bucket === bucket ? sum + l.amountMicro : sum), 0n);
}
