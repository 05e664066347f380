import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Market, MARKETS, priceToScaled } from '@paper/exchange';
import { TOOLS_REDIS } from '../redis/tools-redis';
import type { HyperliquidInfoClient } from '@paper/upstream';
import type { Redis } from 'ioredis';
import { priceDecimals } from '../money/money-format';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';

export const UPSTREAM_CLIENT = Symbol('UPSTREAM_CLIENT');

const SHARED_TTL_SECONDS = 60;
const FAILURE_BACKOFF_MS = 5000;

/**
 * The venue's previous-day prices (for the 24h change), shared by every replica through Redis for a
 * minute so the request weight stays small. Null while the venue cannot be reached.
 */
@Injectable()
export class PrevDayPriceSource {
  private readonly logger = new Logger('PrevDayPrices');
  private failedAt = 0;

  constructor(
    @Inject(TOOLS_REDIS) private readonly redis: Redis,
    @Inject(UPSTREAM_CLIENT) private readonly upstream: HyperliquidInfoClient,
    @Inject(TOOLS_RUNTIME_OPTIONS) private readonly options: ToolsRuntimeOptions,
  ) {}

  async get(): Promise<Partial<Record<Market, bigint>>> {
    const key = `${this.options.redisPrefix}:upstream:prev-day`;
    const cached = await this.redis.hgetall(key);
    if (cached && Object.keys(cached).length > 0) return this.parse(cached);
    if (Date.now() - this.failedAt < FAILURE_BACKOFF_MS) return {};
    try {
      const [meta, ctxs] = await this.upstream.metaAndAssetCtxs();
      const values: Record<string, string> = {};
      meta.universe.forEach((asset, i) => {
        const ctx = ctxs[i];
        if (ctx && (MARKETS as readonly string[]).includes(asset.name)) values[asset.name] = ctx.prevDayPx;
      });
      if (Object.keys(values).length > 0) {
        await this.redis.multi().hset(key, values).expire(key, SHARED_TTL_SECONDS).exec();
      }
      return this.parse(values);
    } catch (error) {
      this.failedAt = Date.now();
      this.logger.warn(`previous-day prices unavailable: ${(error as Error).message}`);
      return {};
    }
  }

  private parse(values: Record<string, string>): Partial<Record<Market, bigint>> {
    const out: Partial<Record<Market, bigint>> = {};
    for (const market of MARKETS) {
      const text = values[market];
      if (!text) continue;
      try {
        out[market] = priceToScaled(text, priceDecimals(market));
      } catch {
        // an unreadable value leaves the change unknown
      }
    }
    return out;
  }
}
