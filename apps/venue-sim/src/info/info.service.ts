import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import { type AssetCtx, candleSnapshotExtraWeight } from '@paper/upstream';
import { buildCandles } from '../candles/candle-history';
import type { VenueSimConfig } from '../config/venue-sim.config';
import { findMarket, MARKETS } from '../markets/market-spec';
import { PriceEngineService } from '../prices/price-engine.service';
import { WeightBudget } from '../weights/weight-budget';
import { aggregateBook } from './book-aggregation';
import type { InfoRequest, InfoRequestType } from './info-request.dto';
import { InfoError, InfoErrorCode } from './info.exception';
import { assetCtxView, l2BookView, midView } from './info-views';
import { fundingHistory, predictedFundings, recentTrades } from './market-activity';
import { MARGIN_TABLES, maxMarketOrderNotionals, PERP_DEXS, type PerpMeta, perpMeta, spotMeta } from './market-meta';

const DAY = 86_400_000;
/** Request weight as the venue charges it: 2 for the cheap reads, 20 for everything else. */
const CHEAP: ReadonlySet<InfoRequestType> = new Set(['allMids', 'l2Book', 'exchangeStatus']);
export const infoWeight = (type: InfoRequestType): number => (CHEAP.has(type) ? 2 : 20);

/** Answers POST /info the way the venue does, charging each caller's request-weight budget. */
@Injectable()
export class InfoService {
  constructor(
    private readonly prices: PriceEngineService,
    private readonly budget: WeightBudget,
    @Inject(APP_CONFIG) private readonly config: VenueSimConfig,
  ) {}

  answer(request: InfoRequest, ip: string, now = Date.now()): unknown {
    const charge = this.budget.charge(ip, infoWeight(request.type));
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
        const q = this.prices.quote(market.coin, now);
        const book = l2BookView(market, q, this.config.SIM_SEED, now, this.config.SIM_TICK_MS);
        return aggregateBook(book, market, q, request, this.config.SIM_SEED, Math.floor(now / this.config.SIM_TICK_MS));
      }
      case 'candleSnapshot': {
        const { coin, interval, startTime, endTime } = request.req;
        const market = findMarket(coin);
        if (!market) return [];
        this.prices.quote(market.coin, now);
        const candles = buildCandles(
          this.prices.runtime(market.coin).candleSource(),
          interval,
          startTime,
          endTime ?? now,
          now,
        );
        this.budget.chargeExtra(ip, candleSnapshotExtraWeight(candles.length));
        return candles;
      }
      case 'meta':
        return perpMeta();
      case 'metaAndAssetCtxs':
        return this.metaAndAssetCtxs(now);
      case 'allPerpMetas':
        return [perpMeta()];
      case 'perpDexs':
        return PERP_DEXS;
      case 'perpsAtOpenInterestCap':
        return [];
      case 'marginTable':
        return MARGIN_TABLES.get(request.id) ?? null;
      case 'maxMarketOrderNtls':
        return maxMarketOrderNotionals();
      case 'predictedFundings':
        return predictedFundings(MARKETS, now);
      case 'fundingHistory': {
        const market = findMarket(request.coin);
        return market ? fundingHistory(market, request.startTime, request.endTime ?? now) : [];
      }
      case 'recentTrades': {
        const market = findMarket(request.coin);
        return market ? recentTrades(market, this.prices.quote(market.coin, now), this.config.SIM_SEED, now) : [];
      }
      case 'exchangeStatus':
        return { time: now, specialStatuses: null };
      case 'perpDeployAuctionStatus':
        return {
          currentGas: null,
          durationSeconds: 111_600,
          endGas: null,
          startGas: '500.0',
          startTimeSeconds: Math.floor(now / DAY) * 86_400,
        };
      case 'spotMeta':
        return spotMeta();
      case 'spotMetaAndAssetCtxs':
        return [spotMeta(), []];
    }
  }

  private metaAndAssetCtxs(now: number): [PerpMeta, AssetCtx[]] {
    const ctxs = MARKETS.map((m) => {
      const runtime = this.prices.runtime(m.coin);
      const q = this.prices.quote(m.coin, now);
      return assetCtxView(m, q, runtime.midHalfTicksAt(now - DAY), runtime.volume(now - DAY, DAY));
    });
    return [perpMeta(), ctxs];
  }
}
