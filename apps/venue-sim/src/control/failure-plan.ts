export type FailMode = 'none' | 'error' | 'timeout';

export type Failure = { mode: 'error'; status: number } | { mode: 'timeout' };

/** Which /info requests to fail and how: every one until reset, or the next `count`. */
export class FailurePlan {
  private mode: FailMode = 'none';
  private status = 500;
  private remaining: number | undefined;

  set(mode: FailMode, status = 500, count?: number): void {
    this.mode = count === 0 ? 'none' : mode;
    this.status = status;
    this.remaining = count;
  }

  /** The failure for the next request, if any (counts it down). */
  next(): Failure | undefined {
    if (this.mode === 'none') return undefined;
    const failure: Failure = this.mode === 'error' ? { mode: 'error', status: this.status } : { mode: 'timeout' };
    if (this.remaining !== undefined) {
      this.remaining -= 1;
      if (this.remaining <= 0) this.set('none');
    }
    return failure;
  }

  state(): { mode: FailMode; status?: number; remaining: number | null } {
    return {
      mode: this.mode,
      ...(this.mode === 'error' ? { status: this.status } : {}),
      remaining: this.remaining ?? null,
    };
  }
}
