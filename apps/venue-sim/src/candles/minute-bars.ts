/** OHLC of the mids the simulator served in one minute (prices in half ticks), with its volume. */
export interface MinuteBar {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/**
 * The live record: one bar per minute since the simulator started, for at most `capacity` minutes
 * (older bars are dropped and that time falls back to the seeded path). Minutes without a quote stay empty.
 */
export class MinuteBars {
  private firstMinute: number | undefined;
  private bars: (MinuteBar | undefined)[] = [];

  constructor(private readonly capacity: number) {}

  /** Adds one served mid at time `ms`; `volume(minute)` gives the volume of a new minute. */
  record(ms: number, midHalfTicks: number, volume: (minute: number) => number): void {
    const minute = Math.floor(ms / 60_000);
    if (this.firstMinute === undefined) this.firstMinute = minute;
    const index = minute - this.firstMinute;
    if (index < 0) return;
    const bar = this.bars[index];
    if (bar) {
      bar.h = Math.max(bar.h, midHalfTicks);
      bar.l = Math.min(bar.l, midHalfTicks);
      bar.c = midHalfTicks;
    } else {
      while (this.bars.length < index) this.bars.push(undefined);
      this.bars[index] = { o: midHalfTicks, h: midHalfTicks, l: midHalfTicks, c: midHalfTicks, v: volume(minute) };
    }
    this.trim();
  }

  /** Start (ms) of the oldest recorded minute, or undefined when nothing is recorded. */
  startMs(): number | undefined {
    return this.firstMinute === undefined ? undefined : this.firstMinute * 60_000;
  }

  /** Bars of the minutes overlapping [fromMs, toMs], oldest first. */
  between(fromMs: number, toMs: number): MinuteBar[] {
    if (this.firstMinute === undefined) return [];
    const from = Math.max(0, Math.floor(fromMs / 60_000) - this.firstMinute);
    const to = Math.min(this.bars.length - 1, Math.floor(toMs / 60_000) - this.firstMinute);
    const out: MinuteBar[] = [];
    for (let i = from; i <= to; i += 1) {
      const bar = this.bars[i];
      if (bar) out.push(bar);
    }
    return out;
  }

  /** The bar of the minute containing `ms`, if recorded. */
  at(ms: number): MinuteBar | undefined {
    if (this.firstMinute === undefined) return undefined;
    return this.bars[Math.floor(ms / 60_000) - this.firstMinute];
  }

  get size(): number {
    return this.bars.length;
  }

  clear(): void {
    this.firstMinute = undefined;
    this.bars = [];
  }

  private trim(): void {
    const excess = this.bars.length - this.capacity;
    if (excess > 0 && this.firstMinute !== undefined) {
      this.bars.splice(0, excess);
      this.firstMinute += excess;
    }
  }
}
