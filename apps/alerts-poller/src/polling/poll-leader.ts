import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Lets one process at a time run a poll pass, however many replicas take scheduled jobs: a Redis
 * lease (SET NX PX) renewed while the pass runs and released after it. A holder that dies lets the
 * lease lapse after `ttlMs`.
 */
export class PollLeader {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly ttlMs: number,
  ) {}

  /** Runs `pass` if the lease could be taken; `undefined` when another process holds it. */
  async runExclusive<T>(pass: () => Promise<T>): Promise<T | undefined> {
    const owner = randomUUID();
    if ((await this.redis.set(this.key, owner, 'PX', this.ttlMs, 'NX')) !== 'OK') return undefined;
    const renew = setInterval(() => {
      this.redis.eval(RENEW, 1, this.key, owner, String(this.ttlMs)).catch(() => undefined);
    }, Math.max(100, Math.floor(this.ttlMs / 3)));
    try {
      return await pass();
    } finally {
      clearInterval(renew);
      await this.redis.eval(RELEASE, 1, this.key, owner).catch(() => undefined);
    }
  }
}
