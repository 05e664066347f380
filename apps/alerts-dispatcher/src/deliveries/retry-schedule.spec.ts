import { maxAttempts, nextRetryDelay, type RetryPolicy } from './retry-schedule';

const policy: RetryPolicy = { schedule: [5000, 300_000, 1_800_000], jitterPct: 20, retryAfterMaxMs: 3_600_000 };

describe('retry schedule', () => {
  it('gives one immediate attempt plus one per scheduled delay', () => {
    expect(maxAttempts(policy)).toBe(4);
    expect(nextRetryDelay(1, policy, undefined, () => 0.5)).toBe(5000);
    expect(nextRetryDelay(2, policy, undefined, () => 0.5)).toBe(300_000);
    expect(nextRetryDelay(3, policy, undefined, () => 0.5)).toBe(1_800_000);
    expect(nextRetryDelay(4, policy)).toBeUndefined();
  });

  it('jitters each delay by at most the configured percentage', () => {
    expect(nextRetryDelay(1, policy, undefined, () => 0)).toBe(4000);
    expect(nextRetryDelay(1, policy, undefined, () => 0.999999)).toBe(6000);
    for (let i = 0; i < 200; i += 1) {
      const d = nextRetryDelay(2, policy)!;
      expect(d).toBeGreaterThanOrEqual(240_000);
      expect(d).toBeLessThanOrEqual(360_000);
    }
  });

  it('waits at least as long as Retry-After asks, up to the cap', () => {
    expect(nextRetryDelay(1, policy, 60_000, () => 0.5)).toBe(60_000);
    expect(nextRetryDelay(1, policy, 1000, () => 0.5)).toBe(5000);
    expect(nextRetryDelay(1, policy, 86_400_000, () => 0.5)).toBe(3_600_000);
  });
});
