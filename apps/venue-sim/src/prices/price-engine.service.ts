import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import type { VenueSimConfig } from '../config/venue-sim.config';
import { type Coin, MARKETS } from '../markets/market-spec';
import type { PathMove } from './price-control';
import { MarketRuntime } from './market-runtime';
import type { TickQuote } from './quote';

/**
 * The simulator's markets. A ticker quotes every market once per tick so the live record (minute bars)
 * holds every price in between requests; reads quote "now" as well, so answers are never a tick stale.
 */
@Injectable()
export class PriceEngineService implements OnModuleInit, OnModuleDestroy {
  private runtimes = new Map<Coin, MarketRuntime>();
  private frozen = false;
  private startedAt = 0;
  private ticker: NodeJS.Timeout | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: VenueSimConfig) {
    this.reset();
  }

  onModuleInit(): void {
    this.ticker = setInterval(() => this.tick(), this.config.SIM_TICK_MS);
    this.ticker.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.ticker);
  }

  /** Back to the start: fresh walk anchored at the start prices now, no controls, empty live record. */
  reset(now = Date.now()): void {
    this.startedAt = now;
    this.frozen = false;
    const options = { seed: this.config.SIM_SEED, tickMs: this.config.SIM_TICK_MS, startedAt: now };
    this.runtimes = new Map(MARKETS.map((m) => [m.coin, new MarketRuntime(m, options)]));
    this.tick(now);
  }

  runtime(coin: Coin): MarketRuntime {
    return this.runtimes.get(coin)!;
  }

  quote(coin: Coin, now = Date.now()): TickQuote {
    return this.runtime(coin).quote(now, this.frozen);
  }

  setPrice(coin: Coin, price: number, now = Date.now()): void {
    this.runtime(coin).control.set(price, now, this.frozen);
    this.quote(coin, now);
  }

  startPath(coin: Coin, to: number, durationMs: number, steps: number, now = Date.now()): PathMove {
    const move = this.runtime(coin).control.startPath(to, durationMs, steps, now, this.frozen);
    this.quote(coin, now);
    return move;
  }

  setFrozen(frozen: boolean, now = Date.now()): void {
    for (const runtime of this.runtimes.values()) runtime.control.freeze(frozen, this.frozen, now);
    this.frozen = frozen;
    this.tick(now);
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  get startTime(): number {
    return this.startedAt;
  }

  private tick(now = Date.now()): void {
    for (const coin of this.runtimes.keys()) this.quote(coin, now);
  }
}
