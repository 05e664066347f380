import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import type { VenueSimConfig } from '../config/venue-sim.config';
import { MARKETS } from '../markets/market-spec';
import { PriceEngineService } from '../prices/price-engine.service';
import { WeightBudget } from '../weights/weight-budget';
import { failSchema, freezeSchema, parseControl, pathSchema, setPriceSchema } from './control.dto';
import { FaultInjectionService } from './fault-injection.service';
import { formatTicks } from '../prices/quote';
import { midView } from '../info/info-views';

/** The control API (development and tests): set and move prices, freeze the walk, inject failures, reset. */
@Controller('control')
export class ControlController {
  constructor(
    private readonly prices: PriceEngineService,
    private readonly faults: FaultInjectionService,
    private readonly budget: WeightBudget,
    @Inject(APP_CONFIG) private readonly config: VenueSimConfig,
  ) {}

  @Get('state')
  state() {
    const now = Date.now();
    const markets = Object.fromEntries(
      MARKETS.map((m) => {
        const q = this.prices.quote(m.coin, now);
        const control = this.prices.runtime(m.coin).control.state(now, this.prices.isFrozen);
        return [
          m.coin,
          {
            bid: formatTicks(q.bid, m.priceDecimals),
            ask: formatTicks(q.ask, m.priceDecimals),
            mid: midView(m, q),
            ...control,
          },
        ];
      }),
    );
    return {
      seed: this.config.SIM_SEED,
      tickMs: this.config.SIM_TICK_MS,
      startedAt: this.prices.startTime,
      time: now,
      frozen: this.prices.isFrozen,
      fail: this.faults.plan.state(),
      heldRequests: this.faults.heldCount,
      weightPerMinute: this.budget.perMinute,
      markets,
    };
  }

  @Post('price')
  @HttpCode(200)
  setPrice(@Body() body: unknown) {
    const { coin, price } = parseControl(setPriceSchema, body);
    this.prices.setPrice(coin, price);
    return this.state();
  }

  @Post('path')
  @HttpCode(200)
  path(@Body() body: unknown) {
    const { coin, to, durationMs, steps } = parseControl(pathSchema, body);
    const resolvedSteps = steps ?? Math.max(1, Math.floor(durationMs / this.config.SIM_TICK_MS));
    this.prices.startPath(coin, to, durationMs, resolvedSteps);
    return this.state();
  }

  @Post('freeze')
  @HttpCode(200)
  freeze(@Body() body: unknown) {
    this.prices.setFrozen(parseControl(freezeSchema, body).frozen);
    return this.state();
  }

  @Post('fail')
  @HttpCode(200)
  fail(@Body() body: unknown) {
    const { mode, status, count } = parseControl(failSchema, body);
    this.faults.plan.set(mode, status ?? 500, count);
    if (mode === 'none') this.faults.releaseAll();
    return this.state();
  }

  @Post('reset')
  @HttpCode(200)
  reset() {
    this.faults.plan.set('none');
    this.faults.releaseAll();
    this.budget.reset();
    this.prices.reset();
    return this.state();
  }
}
