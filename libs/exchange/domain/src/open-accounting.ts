import { LedgerLine, transfer } from './ledger';

export interface OpenAccounting {
  /** Margin taken from the free balance. */
  readonly fromFreeMicro: bigint;
  /** Margin taken from queued winnings (stays backed by them until the queue pays them). */
  readonly fromQueuedMicro: bigint;
  readonly lines: LedgerLine[];
}

/**
 * Locks `marginMicro` for a new position: from the free balance first, then from queued winnings (the
 * spec lets queued winnings be used as margin). The caller has checked margin <= free + queued.
 */
export function openAccounting(
  wallet: string,
  freeMicro: bigint,
  queuedMicro: bigint,
  marginMicro: bigint,
): OpenAccounting {
  if (marginMicro <= 0n) throw new RangeError('Margin must be positive');
  if (marginMicro > freeMicro + queuedMicro) throw new RangeError('Margin exceeds the available balance');
  const fromFreeMicro = marginMicro <= freeMicro ? marginMicro : freeMicro;
  const fromQueuedMicro = marginMicro - fromFreeMicro;
  const to = { owner: wallet, bucket: 'locked' as const };
  return {
    fromFreeMicro,
    fromQueuedMicro,
    lines: [
      ...transfer({ owner: wallet, bucket: 'free' }, to, fromFreeMicro),
      ...transfer({ owner: wallet, bucket: 'queued' }, to, fromQueuedMicro),
    ],
  };
}
