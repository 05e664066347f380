import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { parsePriceTickMessage, type PriceTick, priceTickChannel } from '@paper/contracts';
import type { Market } from '@paper/exchange';
import { APP_CONFIG, REDIS, RedisLease, SUBSCRIBER_OPTIONS } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { liquidationPassDuration } from '../metrics/executor-metrics';
import { LiquidationService, type MarkRange } from './liquidation.service';

interface MarketPass {
  running: Promise<void> | null;
  /** The lowest and highest mark of the ticks that arrived while a pass was running (none: null). */
  pending: MarkRange | null;
}

/**
 * Runs a liquidation pass for each price tick of each market, on the single replica holding the
 * liquidator lease. Ticks that arrive during a pass are merged into the lowest and highest mark seen
 * since it started; the next pass liquidates longs at that low and shorts at that high, so a spike
 * through a bust price that reverts within one pass still liquidates.
 */
@Injectable()
export class LiquidationListener implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Liquidations');
  private readonly lease: RedisLease;
  private subscriber?: Redis;
  private renewTimer?: NodeJS.Timeout;
  private readonly passes = new Map<Market, MarketPass>();
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: TradingExecutorConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly liquidations: LiquidationService,
  ) {
    this.lease = new RedisLease(redis, `${config.REDIS_PREFIX}:leader:liquidator`, config.LEADER_LEASE_MS);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.LIQUIDATIONS) return;
    await this.lease.tryHold();
    this.renewTimer = setInterval(
      () => void this.lease.tryHold(),
      Math.max(200, Math.floor(this.config.LEADER_LEASE_MS / 3)),
    );
    this.subscriber = this.redis.duplicate(SUBSCRIBER_OPTIONS);
    this.subscriber.on('message', (_channel: string, message: string) => this.onMessage(message));
    this.subscriber.on('error', (error: Error) => this.logger.warn(`price tick subscription: ${error.message}`));
    await this.subscriber.subscribe(priceTickChannel(this.config.REDIS_PREFIX));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.renewTimer);
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
    await Promise.all([...this.passes.values()].map((p) => p.running));
    await this.lease.release();
  }

  /** Resolves when no pass is running or waiting (tests and benchmarks). */
  async idle(): Promise<void> {
    for (;;) {
      const running = [...this.passes.values()].map((p) => p.running).filter((r): r is Promise<void> => r !== null);
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  private onMessage(message: string): void {
    const tick = parsePriceTickMessage(message);
    if (tick) this.onTick(tick);
  }

  onTick(tick: PriceTick): void {
    if (this.stopped || !this.lease.isHeld || Date.now() - tick.ts > this.config.PRICE_STALE_MS) return;
    const pass = this.passes.get(tick.market) ?? { running: null, pending: null };
    this.passes.set(tick.market, pass);
    const mark = BigInt(tick.mid);
    if (pass.running) {
      pass.pending = widen(pass.pending, mark);
      return;
    }
    pass.running = this.drain(tick.market, { low: mark, high: mark }, pass).finally(() => {
      pass.running = null;
    });
  }

  private async drain(market: Market, first: MarkRange, pass: MarketPass): Promise<void> {
    let marks: MarkRange | null = first;
    while (marks && !this.stopped) {
      const stop = liquidationPassDuration.startTimer({ market });
      try {
        const n = await this.liquidations.liquidateRange(market, marks);
        if (n > 0) this.logger.log(`liquidated ${n} ${market} position(s) at marks ${marks.low}..${marks.high}`);
      } catch (error) {
        this.logger.error(`liquidation pass for ${market} failed: ${(error as Error).message}`);
      } finally {
        stop();
      }
      marks = pass.pending;
      pass.pending = null;
    }
  }
}

function widen(range: MarkRange | null, mark: bigint): MarkRange {
  if (!range) return { low: mark, high: mark };
  return { low: mark < range.low ? mark : range.low, high: mark > range.high ? mark : range.high };
}
