import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { type Market, MARKETS } from '@paper/exchange';
import { APP_CONFIG, REDIS, RedisLease } from '@paper/nest-infra';
import { createUpstreamClient, type HyperliquidInfoClient, isUpstreamError } from '@paper/upstream';
import type { Redis } from 'ioredis';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { priceAge, priceIngestFailures } from '../metrics/executor-metrics';
import { PriceBook } from './price-book.service';
import { toPriceTick } from './price-tick';

export const UPSTREAM_CLIENT = Symbol('UPSTREAM_CLIENT');

/** Builds the venue client for ingest: one attempt per poll, bounded by the poll interval. */
export function ingestUpstreamClient(config: TradingExecutorConfig): HyperliquidInfoClient {
  return createUpstreamClient({
    ...config,
    UPSTREAM_RETRIES: 0,
    UPSTREAM_TIMEOUT_MS: Math.min(config.UPSTREAM_TIMEOUT_MS, Math.max(200, config.PRICE_POLL_MS)),
  });
}

/**
 * Polls the venue's best bid/ask for every market each PRICE_POLL_MS and publishes them (Redis hash +
 * tick channel). One replica ingests at a time (Redis lease); the others stand by. On an upstream
 * failure the last price stays (and turns stale after PRICE_STALE_MS, which stops execution).
 */
@Injectable()
export class PriceIngestService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('PriceIngest');
  private readonly lease: RedisLease;
  private timer?: NodeJS.Timeout;
  private polling = false;
  private readonly lastFailureLog = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: TradingExecutorConfig,
    @Inject(REDIS) redis: Redis,
    @Inject(UPSTREAM_CLIENT) private readonly upstream: Pick<HyperliquidInfoClient, 'bestBidAsk'>,
    private readonly book: PriceBook,
  ) {
    this.lease = new RedisLease(redis, `${config.REDIS_PREFIX}:leader:price-ingest`, config.LEADER_LEASE_MS);
  }

  get isIngesting(): boolean {
    return this.lease.isHeld;
  }

  onModuleInit(): void {
    if (!this.config.PRICE_INGEST) return;
    void this.poll();
    this.timer = setInterval(() => void this.poll(), this.config.PRICE_POLL_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.lease.release();
  }

  /** One poll: when this replica holds the lease, fetch and publish every market. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      if (!(await this.lease.tryHold())) return;
      await Promise.all(MARKETS.map((market) => this.ingest(market)));
    } finally {
      this.polling = false;
    }
  }

  private async ingest(market: Market): Promise<void> {
    try {
      const quote = await this.upstream.bestBidAsk(market);
      const tick = toPriceTick(market, quote);
      await this.book.publish(tick);
      priceAge.set({ market }, Math.max(0, (Date.now() - tick.ts) / 1000));
    } catch (error) {
      const kind = isUpstreamError(error) ? error.kind : 'other';
      priceIngestFailures.inc({ market, kind });
      const last = this.lastFailureLog.get(market) ?? 0;
      if (Date.now() - last > 10_000) {
        this.lastFailureLog.set(market, Date.now());
        const detail = isUpstreamError(error) ? error.detail : (error as Error).message;
        this.logger.warn(`price ingest for ${market} failed (${kind}): ${detail}; keeping the last price`);
      }
    }
  }
}
