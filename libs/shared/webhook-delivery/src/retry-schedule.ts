export interface RetryPolicy {
  /** Delays before the 2nd, 3rd, ... attempt, in milliseconds. */
  schedule: readonly number[];
  /** Maximum variation of each delay, in percent either way. */
  jitterPct: number;
  /** Retry-After is honoured up to this long. */
  retryAfterMaxMs: number;
  /** Rate-limited answers (429) a delivery may get in total before it is dead-lettered. */
  rateLimitedMax: number;
}

/** A rate-limited wait gets at most this much random extra time (and never less than asked). */
export const RATE_LIMIT_JITTER_MAX_MS = 250;
/** ... and at most this fraction of the wait itself (Discord's 0.3 s stays about 0.3 s). */
export const RATE_LIMIT_JITTER_FRACTION = 0.1;

/** Attempts a delivery gets in total: the immediate one plus one per scheduled delay. */
export const maxAttempts = (policy: RetryPolicy): number => policy.schedule.length + 1;

function scheduled(index: number, policy: RetryPolicy, random: () => number): number {
  const base = policy.schedule[Math.min(Math.max(index, 0), policy.schedule.length - 1)] ?? 0;
  const jitter = (policy.jitterPct / 100) * (random() * 2 - 1);
  return Math.max(0, Math.round(base * (1 + jitter)));
}

/**
 * The wait before the next attempt after `attemptsMade` attempts failed temporarily, or undefined when
 * the attempts are used up (dead letter). The scheduled delay gets random jitter; a receiver's
 * Retry-After on a failed attempt (503, say) makes it longer, never shorter.
 */
export function nextRetryDelay(
  attemptsMade: number,
  policy: RetryPolicy,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined {
  if (attemptsMade < 1 || attemptsMade > policy.schedule.length) return undefined;
  const asked = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, policy.retryAfterMaxMs);
  return Math.max(scheduled(attemptsMade - 1, policy, random), asked);
}

/**
 * The wait after a rate-limited answer (429), which is not a failed attempt: exactly the receiver's
 * Retry-After (capped at `retryAfterMaxMs`) plus a small random jitter (at most 10% of it and at most
 * 250 ms, never earlier than asked); without a Retry-After, the scheduled delay that follows the
 * attempts counted so far. Undefined at the `rateLimitedMax`-th rate-limited answer (dead letter), so a receiver that
 * always answers 429 cannot keep a delivery forever.
 */
export function rateLimitedDelay(
  rateLimitedSoFar: number,
  countedAttempts: number,
  policy: RetryPolicy,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined {
  if (rateLimitedSoFar + 1 >= policy.rateLimitedMax) return undefined;
  if (retryAfterMs === undefined) return scheduled(countedAttempts, policy, random);
  const asked = Math.max(0, Math.min(retryAfterMs, policy.retryAfterMaxMs));
  return asked + Math.floor(random() * Math.min(RATE_LIMIT_JITTER_MAX_MS, asked * RATE_LIMIT_JITTER_FRACTION));
}
