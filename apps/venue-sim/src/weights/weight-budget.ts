import { WeightBucket } from '@paper/upstream';

export type Charge = { ok: true } | { ok: false; retryAfterMs: number };

/** The venue's request-weight limit: `perMinute` weight a minute for each client IP. */
export class WeightBudget {
  private buckets = new Map<string, WeightBucket>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Charges `weight` to `ip` if its budget has it; otherwise says how long until it would. */
  charge(ip: string, weight: number): Charge {
    const bucket = this.bucket(ip);
    if (bucket.tryTake(weight)) return { ok: true };
    const wait = bucket.msUntil(weight);
    return { ok: false, retryAfterMs: Number.isFinite(wait) ? wait : 60_000 };
  }

  /** Weight known only after answering (candles returned); may overdraw the budget. */
  chargeExtra(ip: string, weight: number): void {
    if (weight > 0) this.bucket(ip).take(weight);
  }

  remaining(ip: string): number {
    return this.buckets.get(ip)?.available() ?? this.perMinute;
  }

  reset(): void {
    this.buckets.clear();
  }

  private bucket(ip: string): WeightBucket {
    let bucket = this.buckets.get(ip);
    if (!bucket) {
      if (this.buckets.size >= 10_000) this.prune();
      bucket = new WeightBucket(this.perMinute, this.now);
      this.buckets.set(ip, bucket);
    }
    return bucket;
  }

  private prune(): void {
    for (const [ip, bucket] of this.buckets) if (bucket.isFull()) this.buckets.delete(ip);
  }
}
