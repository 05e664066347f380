export interface RetryPolicy {
  /** Delays before the 2nd, 3rd, ... attempt, in milliseconds. */
  schedule: readonly number[];
  /** Maximum variation of each delay, in percent either way. */
  jitterPct: number;
  /** Retry-After is honoured up to this long. */
  retryAfterMaxMs: number;
}

/** Attempts a delivery gets in total: the immediate one plus one per scheduled delay. */
export const maxAttempts = (policy: RetryPolicy): number => policy.schedule.length + 1;

/**
 * The wait before the next attempt after `attemptsMade` attempts failed temporarily, or undefined when
 * the attempts are used up (dead letter). The scheduled delay gets random jitter; a receiver's
 * Retry-After makes it longer, never shorter.
 */
export function nextRetryDelay(attemptsMade: number, policy: RetryPolicy, retryAfterMs?: number, random: () => number = Math.random): number | undefined {
  if (attemptsMade < 1 || attemptsMade > policy.schedule.length) return undefined;
  const base = policy.schedule[attemptsMade - 1]!;
  const jitter = (policy.jitterPct / 100) * (random() * 2 - 1);
  const scheduled = Math.max(0, Math.round(base * (1 + jitter)));
  const asked = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, policy.retryAfterMaxMs);
  return Math.max(scheduled, asked);
}
