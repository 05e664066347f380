/**
 * A token bucket of request weight refilled continuously at `capacity` a minute. `take` may overdraw
 * (weight only known after the answer, e.g. candle counts); the debt delays later requests.
 */
export class WeightBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(capacity > 0)) throw new RangeError('weight bucket capacity must be positive');
    this.tokens = capacity;
    this.updatedAt = now();
  }

  /** Weight that can be spent right now (negative while in debt). */
  available(): number {
    this.refill();
    return this.tokens;
  }

  /** Takes `weight` if it is available; otherwise takes nothing and returns false. */
  tryTake(weight: number): boolean {
    this.refill();
    if (this.tokens < weight) return false;
    this.tokens -= weight;
    return true;
  }

  /** Takes `weight` unconditionally (may overdraw). */
  take(weight: number): void {
    this.refill();
    this.tokens -= weight;
  }

  /** Milliseconds until `weight` is available (0 when it is now; Infinity when it exceeds the capacity). */
  msUntil(weight: number): number {
    if (weight > this.capacity) return Number.POSITIVE_INFINITY;
    const missing = weight - this.available();
    return missing <= 0 ? 0 : Math.ceil(missing / this.perMs());
  }

  /** True when the bucket is full (nothing spent within the last refill period). */
  isFull(): boolean {
    return this.available() >= this.capacity;
  }

  private perMs(): number {
    return this.capacity / 60_000;
  }

  private refill(): void {
    const now = this.now();
    const elapsed = Math.max(0, now - this.updatedAt);
    this.updatedAt = now;
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.perMs());
  }
}
