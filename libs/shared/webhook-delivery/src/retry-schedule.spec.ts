import { maxAttempts, nextRetryDelay, rateLimitedDelay, type RetryPolicy } from './retry-schedule';

const policy: RetryPolicy = {
  schedule: [5000, 300_000, 1_800_000],
  jitterPct: 20,
  retryAfterMaxMs: 3_600_000,
  rateLimitedMax: 3,
};

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

  it("waits at least as long as a failed attempt's Retry-After asks, up to the cap", () => {
    expect(nextRetryDelay(1, policy, 60_000, () => 0.5)).toBe(60_000);
    expect(nextRetryDelay(1, policy, 1000, () => 0.5)).toBe(5000);
    expect(nextRetryDelay(1, policy, 86_400_000, () => 0.5)).toBe(3_600_000);
  });
});

describe('rate-limited answers (429)', () => {
  it('wait exactly Retry-After plus a small jitter, whatever the attempt count', () => {
    expect(rateLimitedDelay(0, 0, policy, 300, () => 0)).toBe(300);
    expect(rateLimitedDelay(0, 3, policy, 300, () => 0.999999)).toBe(329);
    expect(rateLimitedDelay(1, 2, policy, 60_000, () => 0.999999)).toBe(60_249);
    for (let i = 0; i < 200; i += 1) {
      const d = rateLimitedDelay(0, 1, policy, 300)!;
      expect(d).toBeGreaterThanOrEqual(300);
      expect(d).toBeLessThan(330);
    }
  });

  it('cap Retry-After, and follow the schedule without one', () => {
    expect(rateLimitedDelay(0, 0, policy, 86_400_000, () => 0)).toBe(3_600_000);
    expect(rateLimitedDelay(0, 0, policy, undefined, () => 0.5)).toBe(5000);
    expect(rateLimitedDelay(0, 1, policy, undefined, () => 0.5)).toBe(300_000);
    expect(rateLimitedDelay(0, 9, policy, undefined, () => 0.5)).toBe(1_800_000);
  });

  it('stop at the separate cap of rate-limited answers', () => {
    expect(rateLimitedDelay(1, 0, policy, 300, () => 0)).toBe(300);
    expect(rateLimitedDelay(2, 0, policy, 300, () => 0)).toBeUndefined();
  });
});
