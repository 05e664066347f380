import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type MarketName,
  parsePriceTickMessage,
  type PriceEvent,
  type PriceTick,
  priceTickChannel,
} from '@paper/contracts';
import { marketConfig, scaledToPrice } from '@paper/exchange';
import { APP_CONFIG, createRedisSubscriber } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { ToolsGatewayConfig } from '../config/tools-gateway.config';
import { priceFrame } from './sse-frames';

type RelayConfig = Pick<ToolsGatewayConfig, 'REDIS_URL' | 'REDIS_PREFIX' | 'EVENT_STREAM_PRICE_MS'>;

/**
 * Live `price` events of the public stream: the executor's price ingest publishes every tick on a Redis
 * channel; this relays at most one tick per market every EVENT_STREAM_PRICE_MS (the latest one), as a
 * frame built once for every client. Ticks are live-only: never logged, never replayed.
 */
@Injectable()
export class PriceRelay {
  private readonly logger = new Logger('PriceRelay');
  private subscriber: Redis | null = null;
  private readonly latest = new Map<MarketName, PriceTick>();
  private readonly sentAt = new Map<MarketName, number>();
  private readonly timers = new Map<MarketName, NodeJS.Timeout>();

  constructor(@Inject(APP_CONFIG) private readonly config: RelayConfig) {}

  start(send: (market: MarketName, frame: Buffer) => void): void {
    const subscriber = createRedisSubscriber(this.config);
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, message: string) => {
      const tick = parsePriceTickMessage(message);
      if (tick) this.throttle(tick, send);
    });
    subscriber
      .subscribe(priceTickChannel(this.config.REDIS_PREFIX))
      .catch((error: Error) => this.logger.warn(`price ticks not subscribed: ${error.message}`));
  }

  private throttle(tick: PriceTick, send: (market: MarketName, frame: Buffer) => void): void {
    this.latest.set(tick.market, tick);
    if (this.timers.has(tick.market)) return;
    const wait = Math.max(0, (this.sentAt.get(tick.market) ?? 0) + this.config.EVENT_STREAM_PRICE_MS - Date.now());
    const flush = () => {
      this.timers.delete(tick.market);
      this.sentAt.set(tick.market, Date.now());
      send(tick.market, priceFrame(priceEvent(this.latest.get(tick.market)!)));
    };
    if (wait === 0) flush();
    else this.timers.set(tick.market, setTimeout(flush, wait).unref());
  }

  stop(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.subscriber?.disconnect();
    this.subscriber = null;
  }
}

export function priceEvent(tick: PriceTick): PriceEvent {
  const d = marketConfig(tick.market).priceDecimals;
  const price = (scaled: string) => Number(scaledToPrice(BigInt(scaled), d));
  return {
    market: tick.market,
    markPrice: price(tick.mid),
    bid: price(tick.bid),
    ask: price(tick.ask),
    time: new Date(tick.ts).toISOString(),
  };
}
