import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import { type AssetCtx, candleSnapshotExtraWeight, INFO_REQUEST_WEIGHT, type Meta } from '@paper/upstream';
import { buildCandles } from '../candles/candle-history';
import type { VenueSimConfig } from '../config/venue-sim.config';
import { findMarket, MARKETS } from '../markets/market-spec';
import { PriceEngineService } from '../prices/price-engine.service';
import { WeightBudget } from '../weights/weight-budget';
import type { InfoRequest } from './info-request.dto';
import { InfoError, InfoErrorCode } from './info.exception';
import { assetCtxView, l2BookView, midView } from './info-views';

const DAY = 86_400_000;

/** Answers POST /info the way the venue does, charging each caller's request-weight budget. */
@Injectable()
export class InfoService {
  constructor(
    private readonly prices: PriceEngineService,
    private readonly budget: WeightBudget,
    @Inject(APP_CONFIG) private readonly config: VenueSimConfig,
  ) {}

  answer(request: InfoRequest, ip: string, now = Date.now()): unknown {
    const charge = this.budget.charge(ip, INFO_REQUEST_WEIGHT[request.type]);
    if (!charge.ok) {
      throw new InfoError(InfoErrorCode.RateLimited, 429, 'Too many requests: request weight limit reached.', {
        'Retry-After': String(Math.max(1, Math.ceil(charge.retryAfterMs / 1000))),
      });
    }
    switch (request.type) {
      case 'allMids':
        return Object.fromEntries(MARKETS.map((m) => [m.coin, midView(m, this.prices.quote(m.coin, now))]));
      case 'l2Book': {
        const market = findMarket(request.coin);
        if (!market) return null;
        return l2BookView(market, this.prices.quote(market.coin, now), this.config.SIM_SEED, now, this.config.SIM_TICK_MS);
      }
      case 'candleSnapshot': {
        const { coin, interval, startTime, endTime } = request.req;
        const market = findMarket(coin);
        if (!market) return [];
        this.prices.quote(market.coin, now);
        const candles = buildCandles(this.prices.runtime(market.coin).candleSource(), interval, startTime, endTime ?? now, now);
        this.budget.chargeExtra(ip, candleSnapshotExtraWeight(candles.length));
        return candles;
      }
      case 'metaAndAssetCtxs':
        return this.metaAndAssetCtxs(now);
    }
  }

  private metaAndAssetCtxs(now: number): [Meta, AssetCtx[]] {
    const meta: Meta = { universe: MARKETS.map((m) => ({ name: m.coin, szDecimals: m.szDecimals, maxLeverage: m.maxLeverage })) };
    const ctxs = MARKETS.map((m) => {
      const runtime = this.prices.runtime(m.coin);
      const q = this.prices.quote(m.coin, now);
      return assetCtxView(m, q, runtime.midHalfTicksAt(now - DAY), runtime.volume(now - DAY, DAY));
    });
    return [meta, ctxs];
  }
}
