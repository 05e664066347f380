import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PUBLIC_CACHE_SECONDS } from '@paper/contracts';
import { TOOLS_REDIS } from '../redis/tools-redis';
import type { Redis } from 'ioredis';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';

/**
 * One cached result: the serialised envelope, sent as it is. A string, not bytes: Node writes a string
 * body together with the response head in one write, while a Buffer body needs a gathered write of two.
 */
export interface CacheEntry {
  /** The serialised result envelope (JSON). */
  readonly body: string;
  /** Epoch ms when the shared entry expires. */
  readonly expiresAt: number;
}

export interface CachedBody extends CacheEntry {
  hit: boolean;
}

const LOCAL_LIMIT = 5000;

/** JSON with object keys sorted, so equal arguments give equal cache keys. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The 5-second cache of public tool results, shared by every replica through Redis. The first replica to
 * compute a result stores it with its expiry; every replica serves that same entry until it expires,
 * keeping a local copy (the text to send) for the rest of its life so hot keys cost no Redis round trip
 * and no re-serialisation. Concurrent misses of one key in a process compute once. Redis trouble only
 * turns the cache off, never fails a call.
 */
@Injectable()
export class ToolResultCache {
  private readonly logger = new Logger('ToolResultCache');
  private readonly local = new Map<string, CacheEntry>();
  private readonly inflight = new Map<string, Promise<CachedBody>>();
  readonly ttlMs = PUBLIC_CACHE_SECONDS * 1000;

  constructor(
    @Inject(TOOLS_REDIS) private readonly redis: Redis,
    @Inject(TOOLS_RUNTIME_OPTIONS) private readonly options: ToolsRuntimeOptions,
  ) {}

  key(tool: string, args: unknown): string {
    const canonical = canonicalJson(args);
    const suffix = canonical.length > 160 ? createHash('sha256').update(canonical).digest('hex') : canonical;
    return `${this.options.redisPrefix}:toolcache:${tool}:${suffix}`;
  }

  /** The local copy of an unexpired entry, without waiting: the hot path of a cache hit. */
  peek(key: string, now = Date.now()): CacheEntry | undefined {
    const local = this.local.get(key);
    return local !== undefined && local.expiresAt > now ? local : undefined;
  }

  async getOrCompute(key: string, compute: () => Promise<string>, now = Date.now()): Promise<CachedBody> {
    const local = this.peek(key, now);
    if (local) return { body: local.body, expiresAt: local.expiresAt, hit: true };
    const running = this.inflight.get(key);
    if (running) return running;
    const promise = this.load(key, compute).finally(() => this.inflight.delete(key));
    this.inflight.set(key, promise);
    return promise;
  }

  private async load(key: string, compute: () => Promise<string>): Promise<CachedBody> {
    const shared = await this.redis.get(key).catch((error: Error) => {
      this.logger.warn(`cache read failed: ${error.message}`);
      return null;
    });
    if (shared) {
      const split = shared.indexOf('\n');
      const expiresAt = Number(shared.slice(0, split));
      if (split > 0 && expiresAt > Date.now()) {
        const entry = { body: shared.slice(split + 1), expiresAt };
        this.remember(key, entry);
        return { ...entry, hit: true };
      }
    }
    const body = await compute();
    const expiresAt = Date.now() + this.ttlMs;
    const stored = await this.redis.set(key, `${expiresAt}\n${body}`, 'PX', this.ttlMs, 'NX').catch(() => null);
    if (stored === 'OK') this.remember(key, { body, expiresAt });
    return { body, expiresAt, hit: false };
  }

  private remember(key: string, entry: CacheEntry): void {
    if (this.local.size >= LOCAL_LIMIT) {
      const now = Date.now();
      for (const [k, v] of this.local) if (v.expiresAt <= now) this.local.delete(k);
      if (this.local.size >= LOCAL_LIMIT) this.local.clear();
    }
    this.local.set(key, entry);
  }
}
