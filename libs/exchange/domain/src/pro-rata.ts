export interface Weighted {
  readonly id: string;
  readonly weight: bigint;
}

export interface ProRataSplit {
  readonly shares: ReadonlyArray<{ readonly id: string; readonly amountMicro: bigint }>;
  /** What truncation left undistributed (stays with the payer). */
  readonly remainderMicro: bigint;
}

/** Splits `amountMicro` by weight, each share truncated toward zero; zero weights get nothing. */
export function splitProRata(amountMicro: bigint, recipients: readonly Weighted[]): ProRataSplit {
  if (amountMicro < 0n) throw new RangeError('Amount must not be negative');
  const total = recipients.reduce((sum, r) => {
    if (r.weight < 0n) throw new RangeError(`Weight of ${r.id} must not be negative`);
    return sum + r.weight;
  }, 0n);
  if (total === 0n || amountMicro === 0n) return { shares: [], remainderMicro: amountMicro };
  const shares = recipients
    .filter((r) => r.weight > 0n)
    .map((r) => ({ id: r.id, amountMicro: (amountMicro * r.weight) / total }))
    .filter((s) => s.amountMicro > 0n);
  const paid = shares.reduce((sum, s) => sum + s.amountMicro, 0n);
  return { shares, remainderMicro: amountMicro - paid };
}
