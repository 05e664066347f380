import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * A Redis lease electing one holder among the replicas (SET NX PX, renewed while held). If the holder
 * dies, the key lapses after `ttlMs` and another replica takes over on its next attempt.
 */
export class LeaderLease {
  readonly owner = randomUUID();
  private held = false;

  constructor(
    private readonly redis: Redis,
    readonly key: string,
    private readonly ttlMs: number,
  ) {}

  get isHeld(): boolean {
    return this.held;
  }

  /** Renews the lease if held, else tries to take it. Never throws: a Redis error means "not held". */
  async tryHold(): Promise<boolean> {
    try {
      if (this.held && Number(await this.redis.eval(RENEW, 1, this.key, this.owner, String(this.ttlMs))) === 1)
        return true;
      this.held = (await this.redis.set(this.key, this.owner, 'PX', this.ttlMs, 'NX')) === 'OK';
    } catch {
      this.held = false;
    }
    return this.held;
  }

  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    await this.redis.eval(RELEASE, 1, this.key, this.owner).catch(() => undefined);
  }
}
