import { Inject, Injectable } from '@nestjs/common';
import { parsePriceTick, priceKey } from '@paper/contracts';
import { MARKETS, type Market } from '@paper/exchange';
import { TOOLS_REDIS } from '../redis/tools-redis';
import type { Redis } from 'ioredis';
import { ToolError, RETRY_AFTER_SECONDS } from '../errors/tool.error';
import { ToolErrorCode } from '@paper/contracts';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';

/** The latest venue quote of a market, integers at the market price scale. */
export interface LivePrice {
  market: Market;
  bid: bigint;
  ask: bigint;
  /** floor((bid + ask) / 2): mark, entry and exit price. */
  mid: bigint;
  /** Epoch ms when the venue quoted it. */
  ts: number;
}

/** Reads the latest prices the executor's price ingest keeps in Redis. */
@Injectable()
export class PriceReader {
  constructor(
    @Inject(TOOLS_REDIS) private readonly redis: Redis,
    @Inject(TOOLS_RUNTIME_OPTIONS) private readonly options: ToolsRuntimeOptions,
  ) {}

  async latest(market: Market): Promise<LivePrice> {
    const hash = await this.redis.hgetall(priceKey(this.options.redisPrefix, market));
    return this.parse(market, hash);
  }

  async all(): Promise<Record<Market, LivePrice>> {
    const pipeline = this.redis.pipeline();
    for (const market of MARKETS) pipeline.hgetall(priceKey(this.options.redisPrefix, market));
    const results = (await pipeline.exec()) ?? [];
    const entries = MARKETS.map((market, i) => {
      const [error, hash] = results[i] ?? [new Error('no reply'), null];
      if (error) throw error;
      return [market, this.parse(market, hash as Record<string, string>)] as const;
    });
    return Object.fromEntries(entries) as Record<Market, LivePrice>;
  }

  /** Like {@link latest} but refuses a price older than the configured maximum age (trading needs a live price). */
  async fresh(market: Market, now = Date.now()): Promise<LivePrice> {
    const price = await this.latest(market);
    if (now - price.ts > this.options.priceMaxAgeMs) {
      throw new ToolError(
        ToolErrorCode.UpstreamUnavailable,
        `The latest ${market} price is ${Math.round((now - price.ts) / 1000)} s old because the price venue is not ` +
          `answering; trading waits for a live price. Please retry shortly.`,
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    }
    return price;
  }

  private parse(market: Market, hash: Record<string, string> | null | undefined): LivePrice {
    const tick = parsePriceTick(hash);
    if (!tick || tick.market !== market) {
      throw new ToolError(
        ToolErrorCode.UpstreamUnavailable,
        `No live ${market} price is available yet (the price feed is starting or the venue is down). Please retry ` +
          `in a few seconds.`,
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    }
    return {
      market,
      bid: BigInt(tick.bid),
      ask: BigInt(tick.ask),
      mid: BigInt(tick.mid),
      ts: tick.ts,
    };
  }
}
