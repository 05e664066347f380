import type { CandleSource } from '../candles/candle-history';
import { MinuteBars } from '../candles/minute-bars';
import type { MarketSpec } from '../markets/market-spec';
import { PriceControl } from './price-control';
import { depthFor, PricePath } from './price-path';
import { uniform } from './prng';
import { midHalfTicks, quoteAround, type TickQuote } from './quote';

// Math functions held locally: hot loops stay fast in sandboxed runtimes (jest) too.
const { exp, floor, sqrt } = Math;

const DAY = 86_400_000;
const YEAR = 365 * DAY;
/** History served before the simulator started. */
export const HISTORY_MS = 1000 * DAY;
/** The path is defined this far around the start (history plus years of running). */
const PATH_HORIZON_MS = 4000 * DAY;
/** Variance of the walk stops growing beyond this horizon, keeping years of history plausible. */
const VARIANCE_CAP_MS = 30 * DAY;
/** Minutes of live record kept (7 days). */
export const LIVE_MINUTES = 7 * 24 * 60;

export interface RuntimeOptions {
  seed: number;
  tickMs: number;
  startedAt: number;
}

/**
 * One market of the simulator: the seeded walk anchored at the start price at `startedAt`, the control
 * state, and the record of served mids. Prices change once per tick (`tickMs`).
 */
export class MarketRuntime {
  readonly path: PricePath;
  readonly control: PriceControl;
  readonly bars = new MinuteBars(LIVE_MINUTES);
  private readonly anchorStep: number;

  constructor(
    readonly market: MarketSpec,
    private readonly options: RuntimeOptions,
  ) {
    const { tickMs } = options;
    this.anchorStep = floor(options.startedAt / tickMs);
    this.path = new PricePath({
      seed: options.seed,
      stream: market.salt,
      sigmaPerStep: market.annualVol * sqrt(tickMs / YEAR),
      capSteps: VARIANCE_CAP_MS / tickMs,
      depth: depthFor(PATH_HORIZON_MS / tickMs),
    });
    this.control = new PriceControl((ms) => this.walkMid(ms));
  }

  /** The seeded walk (no control applied) at time `ms`. */
  walkMid(ms: number): number {
    const step = floor(ms / this.options.tickMs) - this.anchorStep;
    return this.market.startPrice * exp(this.path.logOffset(step));
  }

  /** The quote served at `now` (controls applied); recorded into the live minute bars. */
  quote(now: number, frozen: boolean): TickQuote {
    const tickTime = floor(now / this.options.tickMs) * this.options.tickMs;
    const q = quoteAround(this.control.mid(tickTime, frozen), this.market.priceDecimals);
    this.bars.record(now, midHalfTicks(q), (minute) => this.volume(minute * 60_000, 60_000));
    return q;
  }

  /** Base volume over [fromMs, fromMs + lengthMs): the market's rate times a seeded factor in [0.6, 1.4). */
  volume(fromMs: number, lengthMs: number): number {
    const factor = 0.6 + 0.8 * uniform(this.options.seed, this.market.salt + 1000, floor(fromMs / 60_000));
    return this.market.volumePerMinute * (lengthMs / 60_000) * factor;
  }

  /** The mid served at a past time (from the live record when there is one), in half ticks. */
  midHalfTicksAt(ms: number): number {
    const bar = this.bars.at(ms);
    return bar ? bar.c : midHalfTicks(quoteAround(this.walkMid(ms), this.market.priceDecimals));
  }

  candleSource(): CandleSource {
    return {
      market: this.market,
      pathMid: (ms) => midHalfTicks(quoteAround(this.walkMid(ms), this.market.priceDecimals)),
      pathVolume: (from, length) => this.volume(from, length),
      bars: this.bars,
      tickMs: this.options.tickMs,
      listedAt: this.options.startedAt - HISTORY_MS,
    };
  }
}
