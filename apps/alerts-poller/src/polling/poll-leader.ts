import { RedisLease } from '@paper/nest-infra';
import type { Redis } from 'ioredis';

/** The pass no longer holds the poll lease (it lapsed, was taken over, or could not be renewed): it must not write. */
export class LeaseLostError extends Error {
  constructor(reason: string) {
    super(`poll lease lost: ${reason}`);
    this.name = 'LeaseLostError';
  }
}

/** The lease a poll pass runs under. */
export interface Lease {
  /** Aborted (with a LeaseLostError) as soon as a renewal fails or finds the lease gone. */
  readonly signal: AbortSignal;
  /**
   * Fencing before a commit: atomically checks that the lease is still this pass's and extends it by
   * a full lease period, so the commit that follows cannot overlap another leader. Throws
   * LeaseLostError otherwise, and once the lease was ever found lost.
   */
  confirm(): Promise<void>;
}

/**
 * Lets one process at a time run a poll pass, however many replicas take scheduled jobs: a Redis
 * lease (SET NX PX) renewed while the pass runs and released after it. A holder that dies lets the
 * lease lapse after `ttlMs`. A renewal that fails or finds the lease gone marks it lost for good: the
 * pass's `confirm()` (called inside its commit transaction) then refuses, so a pass that outlived its
 * lease never commits over the next leader's work.
 */
export class PollLeader {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly ttlMs: number,
  ) {}

  /** Runs `pass` if the lease could be taken; `undefined` when another process holds it. */
  async runExclusive<T>(pass: (lease: Lease) => Promise<T>): Promise<T | undefined> {
    const held = new RedisLease(this.redis, this.key, this.ttlMs);
    if (!(await held.take())) return undefined;
    const abort = new AbortController();
    const lose = (reason: string): LeaseLostError => {
      if (!abort.signal.aborted) abort.abort(new LeaseLostError(reason));
      return abort.signal.reason as LeaseLostError;
    };
    const extend = async (): Promise<void> => {
      let renewed: boolean;
      try {
        renewed = await held.renew();
      } catch (error) {
        throw lose(`renewal failed (${(error as Error).message})`);
      }
      if (!renewed) throw lose('it lapsed or another process took it over');
    };
    const lease: Lease = {
      signal: abort.signal,
      confirm: async () => {
        if (abort.signal.aborted) throw abort.signal.reason;
        await extend();
      },
    };
    const renew = setInterval(
      () => {
        if (!abort.signal.aborted) extend().catch(() => undefined);
      },
      Math.max(50, Math.floor(this.ttlMs / 3)),
    );
    try {
      return await pass(lease);
    } finally {
      clearInterval(renew);
      await held.release();
    }
  }
}
