import { Inject, Injectable } from '@nestjs/common';
import { parsePriceTick, type PriceTick, priceKey, priceTickChannel } from '@paper/contracts';
import type { Market } from '@paper/exchange';
import { APP_CONFIG, REDIS } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { TradingExecutorConfig } from '../config/trading-executor.config';

export interface FreshPrice {
  readonly market: Market;
  readonly bid: bigint;
  readonly ask: bigint;
  /** Entry, exit and mark price. */
  readonly mid: bigint;
  readonly ts: number;
}

/** The latest prices in Redis (written by the single ingester): read, publish, and the staleness rule. */
@Injectable()
export class PriceBook {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: Pick<TradingExecutorConfig, 'REDIS_PREFIX' | 'PRICE_STALE_MS'>,
  ) {}

  async latest(market: Market): Promise<PriceTick | null> {
    return parsePriceTick(await this.redis.hgetall(priceKey(this.config.REDIS_PREFIX, market)));
  }

  /** The latest price unless it is older than PRICE_STALE_MS (then null: never execute on it). */
  async fresh(market: Market, now = Date.now()): Promise<FreshPrice | null> {
    const tick = await this.latest(market);
    if (!tick || now - tick.ts > this.config.PRICE_STALE_MS) return null;
    return { market, bid: BigInt(tick.bid), ask: BigInt(tick.ask), mid: BigInt(tick.mid), ts: tick.ts };
  }

  /** Stores a tick as the latest price and publishes it on the tick channel (one round trip). */
  async publish(tick: PriceTick): Promise<void> {
    const { REDIS_PREFIX: prefix } = this.config;
    await this.redis
      .multi()
      .hset(priceKey(prefix, tick.market), {
        market: tick.market,
        bid: tick.bid,
        ask: tick.ask,
        mid: tick.mid,
        ts: String(tick.ts),
      })
      .publish(priceTickChannel(prefix), JSON.stringify(tick))
      .exec();
  }
}
