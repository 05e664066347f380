import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const RENEW =
  `if redis.call('get', KEYS[1]) == ARGV[1] then ` + `return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * A Redis lease that elects one holder among the replicas: taken with SET NX PX, renewed and released only
 * by its owner (a Lua compare-and-set on the owner id). A holder that dies lets the key lapse after
 * `ttlMs`, and another replica takes it on its next attempt. Each instance is one owner.
 */
export class RedisLease {
  readonly owner = randomUUID();
  private held = false;

  constructor(
    private readonly redis: Redis,
    readonly key: string,
    private readonly ttlMs: number,
  ) {}

  /** Whether the last take, renewal or hold found the lease this owner's. */
  get isHeld(): boolean {
    return this.held;
  }

  /** Takes the lease if nobody holds it. Throws when Redis cannot be reached. */
  async take(): Promise<boolean> {
    this.held = (await this.redis.set(this.key, this.owner, 'PX', this.ttlMs, 'NX')) === 'OK';
    return this.held;
  }

  /** Extends the lease by a full period if it is still this owner's. Throws when Redis cannot be reached. */
  async renew(): Promise<boolean> {
    this.held = Number(await this.redis.eval(RENEW, 1, this.key, this.owner, String(this.ttlMs))) === 1;
    return this.held;
  }

  /** Renews the lease if this owner holds it, else tries to take it. Never throws: a Redis error means "not held". */
  async tryHold(): Promise<boolean> {
    try {
      return (await this.renew()) || (await this.take());
    } catch {
      this.held = false;
      return false;
    }
  }

  /** Gives the lease up if this owner holds it (errors ignored: the key lapses anyway). */
  async release(): Promise<void> {
    this.held = false;
    await this.redis.eval(RELEASE, 1, this.key, this.owner).catch(() => undefined);
  }
}
