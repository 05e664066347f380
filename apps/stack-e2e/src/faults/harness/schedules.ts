import type { FaultLab } from './fault-lab';

/** Every job scheduler of the stack's apps, as `<queue>/<scheduler>` (the keys of the run records). */
export const STACK_SCHEDULES = [
  'exchange-maintenance/harvest-payouts',
  'exchange-maintenance/snapshot-equity',
  'exchange-maintenance/rollup-daily-stats',
  'exchange-maintenance/sweep-deposits',
  'exchange-maintenance/expire-intents',
  'alerts-poll/poll-wallets',
  'alerts-poll/poll-protocol',
  'alerts-deliveries/sweep-deliveries',
] as const;

/** Last completed run of each schedule (ms), from the record the apps keep in Redis. */
export async function scheduleRuns(lab: FaultLab): Promise<Record<string, number>> {
  const redis = lab.redisClient();
  try {
    const raw = await redis.hgetall(`${lab.stack.redisPrefix}:schedules:last-run`);
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)]));
  } finally {
    redis.disconnect();
  }
}

/**
 * Waits until every schedule has completed a run after `since` (ms); resolves to the seconds each took,
 * or rejects naming the schedules still silent at the deadline.
 */
export async function schedulesResumed(
  lab: FaultLab,
  since: number,
  timeoutMs = 60_000,
  names: readonly string[] = STACK_SCHEDULES,
): Promise<Record<string, number>> {
  const deadline = since + timeoutMs;
  let runs: Record<string, number> = {};
  for (;;) {
    runs = await scheduleRuns(lab).catch(() => ({}));
    const silent = names.filter((n) => !((runs[n] ?? 0) > since));
    if (silent.length === 0) return Object.fromEntries(names.map((n) => [n, (runs[n]! - since) / 1000]));
    if (Date.now() > deadline)
      throw new Error(
        `schedules silent ${Math.round((Date.now() - since) / 1000)} s after the fault: ${silent.join(', ')}`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
}
