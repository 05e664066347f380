/** A linear move of the mid to `to`, in `steps` equal steps over `durationMs`. */
export interface PathMove {
  from: number;
  to: number;
  startMs: number;
  durationMs: number;
  steps: number;
}

/**
 * What the control API did to one market's mid. The mid is the seeded walk times `factor`, unless it is
 * held (frozen, or set while frozen) or moving along a path. Changes apply from "now" on; time only moves
 * forward, so the past stays as it was recorded.
 */
export class PriceControl {
  private factor = 1;
  private held: number | undefined;
  private move: PathMove | undefined;

  /** @param walk the seeded walk's mid at a time (ms) */
  constructor(private readonly walk: (ms: number) => number) {}

  mid(now: number, frozen: boolean): number {
    this.settle(now, frozen);
    if (this.move) return pathValue(this.move, now);
    if (this.held !== undefined) return this.held;
    return this.walk(now) * this.factor;
  }

  /** Sets the mid now; the walk continues from it unless frozen. */
  set(price: number, now: number, frozen: boolean): void {
    this.move = undefined;
    this.holdOrFollow(price, now, frozen);
  }

  startPath(to: number, durationMs: number, steps: number, now: number, frozen: boolean): PathMove {
    const from = this.mid(now, frozen);
    this.move = { from, to, startMs: now, durationMs, steps };
    this.held = undefined;
    return this.move;
  }

  /** Holds the current mid (freeze) or lets the walk continue from it (unfreeze). */
  freeze(frozen: boolean, wasFrozen: boolean, now: number): void {
    const current = this.mid(now, wasFrozen);
    if (!this.move) this.holdOrFollow(current, now, frozen);
  }

  state(now: number, frozen: boolean): { factor: number; held: boolean; path?: PathMove } {
    this.settle(now, frozen);
    return { factor: this.factor, held: this.held !== undefined, ...(this.move ? { path: { ...this.move } } : {}) };
  }

  private settle(now: number, frozen: boolean): void {
    if (this.move && now >= this.move.startMs + this.move.durationMs) {
      const to = this.move.to;
      this.move = undefined;
      this.holdOrFollow(to, now, frozen);
    }
  }

  private holdOrFollow(price: number, now: number, frozen: boolean): void {
    if (frozen) {
      this.held = price;
    } else {
      this.held = undefined;
      this.factor = price / this.walk(now);
    }
  }
}

export function pathValue(move: PathMove, now: number): number {
  const progress = move.durationMs <= 0 ? 1 : Math.min(1, Math.max(0, (now - move.startMs) / move.durationMs));
  const stepped = Math.floor(progress * move.steps) / move.steps;
  return move.from + (move.to - move.from) * stepped;
}
