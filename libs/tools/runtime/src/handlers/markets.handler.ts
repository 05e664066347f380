import { Inject, Injectable } from '@nestjs/common';
import { GET_MARKETS, type ToolData } from '@paper/contracts';
import { MARKETS } from '@paper/exchange';
import { marketVolumes24h } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import { ExchangeStateReader } from '../exchange/exchange-state.reader';
import { PrevDayPriceSource } from '../exchange/prev-day-price.source';
import { PriceReader } from '../exchange/price.reader';
import { percentOf, priceText, px, usd, usdOrNull } from '../money/money-format';
import type { ToolHandler, ToolOutcome } from './tool-handler';

type Data = ToolData<typeof GET_MARKETS>;

@Injectable()
export class MarketsHandler implements ToolHandler<typeof GET_MARKETS> {
  readonly tool = GET_MARKETS;

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    private readonly prices: PriceReader,
    private readonly state: ExchangeStateReader,
    private readonly prevDay: PrevDayPriceSource,
  ) {}

  async run(): Promise<ToolOutcome<Data>> {
    const [live, state, volumes, prev] = await Promise.all([
      this.prices.all(),
      this.state.read(),
      marketVolumes24h(this.db),
      this.prevDay.get(),
    ]);
    const now = Date.now();
    const markets = MARKETS.map((market) => {
      const price = live[market];
      const { config, longOpenInterestMicro: longOi, shortOpenInterestMicro: shortOi } = state.markets[market];
      const before = prev[market];
      const change = before === undefined ? null : price.mid - before;
      const headroom = (cap: bigint | null, used: bigint) => (cap === null ? null : usd(cap > used ? cap - used : 0n));
      return {
        market,
        markPrice: px(price.mid, market),
        bid: px(price.bid, market),
        ask: px(price.ask, market),
        priceTime: new Date(price.ts).toISOString(),
        priceAgeSeconds: Math.max(0, Math.round((now - price.ts) / 100) / 10),
        change24h: change === null ? null : px(change, market),
        change24hPercent: change === null || before === undefined ? null : percentOf(change, before, 4),
        volume24hUsd: usd(volumes[market] ?? 0n),
        openInterest: {
          longUsd: usd(longOi),
          shortUsd: usd(shortOi),
          longCapUsd: usdOrNull(config.longOpenInterestCapMicro),
          shortCapUsd: usdOrNull(config.shortOpenInterestCapMicro),
          longHeadroomUsd: headroom(config.longOpenInterestCapMicro, longOi),
          shortHeadroomUsd: headroom(config.shortOpenInterestCapMicro, shortOi),
        },
        minMarginUsd: usd(config.minMarginMicro),
        minNotionalUsd: usd(config.minNotionalMicro),
        maxNotionalUsd: usd(config.maxNotionalMicro),
        minLeverage: config.minLeverage,
        maxLeverage: config.maxLeverage,
        open: state.tradingEnabled && config.status === 'open',
        status: config.status,
        priceDecimals: config.priceDecimals,
      };
    });
    const parts = MARKETS.map((m) => {
      const entry = markets.find((x) => x.market === m)!;
      const change =
        entry.change24hPercent === null
          ? ''
          : ` (${entry.change24hPercent >= 0 ? '+' : ''}${entry.change24hPercent.toFixed(2)}% 24h)`;
      return (
        `${m} ${priceText(live[m].mid, m)}${change}` +
        (entry.open ? '' : ` [${state.tradingEnabled ? entry.status : 'trading paused'}]`)
      );
    });
    return {
      summary:
        `${parts.join(', ')}; up to ${markets[0]!.maxLeverage}x leverage, minimum margin ` +
        `${markets[0]!.minMarginUsd} USDC and notional ${markets[0]!.minNotionalUsd.toLocaleString('en-US')} USDC.`,
      data: { tradingEnabled: state.tradingEnabled, markets },
    };
  }
}
