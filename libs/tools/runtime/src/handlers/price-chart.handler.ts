import { Inject, Injectable } from '@nestjs/common';
import { GET_PRICE_CHART, type ToolData, type ToolInput } from '@paper/contracts';
import type { Market } from '@paper/exchange';
import { CandleSource, type ScaledCandle, volumeNumber } from '../exchange/candle.source';
import { percentOf, priceText, px } from '../money/money-format';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';
import type { ToolHandler, ToolOutcome } from './tool-handler';

type Data = ToolData<typeof GET_PRICE_CHART>;

/** The link of the rendered chart for these arguments. */
export function chartUrl(publicBaseUrl: string, market: string, interval: string, count: number): string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return `${base}/charts/${market}?interval=${encodeURIComponent(interval)}&count=${count}`;
}

@Injectable()
export class PriceChartHandler implements ToolHandler<typeof GET_PRICE_CHART> {
  readonly tool = GET_PRICE_CHART;

  constructor(
    private readonly candles: CandleSource,
    @Inject(TOOLS_RUNTIME_OPTIONS) private readonly options: ToolsRuntimeOptions,
  ) {}

  async run(input: ToolInput<typeof GET_PRICE_CHART>): Promise<ToolOutcome<Data>> {
    const { market, interval, count } = input;
    const candles = await this.candles.latest(market, interval, count);
    const stats = rangeStats(market, candles);
    const url = chartUrl(this.options.publicBaseUrl, market, interval, count);
    const first = candles[0];
    const last = candles[candles.length - 1];
    const summary =
      first && last
        ? `${market} over the last ${candles.length} ${interval} candles: ${priceText(first.open, market)} to ` +
          `${priceText(last.close, market)} ` +
          `(${stats.changePercent !== null && stats.changePercent >= 0 ? '+' : ''}${stats.changePercent ?? 0}%), ` +
          `high ${priceText(maxOf(candles, 'high'), market)}, low ${priceText(minOf(candles, 'low'), market)}. ` +
          `Chart: ${url}`
        : `The venue returned no ${interval} candles for ${market}. Chart: ${url}`;
    return {
      summary,
      data: {
        market,
        interval,
        candles: candles.map((c) => ({
          time: c.time,
          open: px(c.open, market),
          high: px(c.high, market),
          low: px(c.low, market),
          close: px(c.close, market),
          volume: volumeNumber(c.volumeMicro),
        })),
        stats,
        chartUrl: url,
      },
    };
  }
}

function maxOf(candles: ScaledCandle[], key: 'high'): bigint {
  return candles.reduce((m, c) => (c[key] > m ? c[key] : m), candles[0]![key]);
}

function minOf(candles: ScaledCandle[], key: 'low'): bigint {
  return candles.reduce((m, c) => (c[key] < m ? c[key] : m), candles[0]![key]);
}

export function rangeStats(market: Market, candles: ScaledCandle[]): Data['stats'] {
  const first = candles[0];
  const last = candles[candles.length - 1];
  if (!first || !last) {
    return {
      open: null,
      close: null,
      high: null,
      low: null,
      change: null,
      changePercent: null,
      volume: 0,
      from: null,
      to: null,
    };
  }
  const change = last.close - first.open;
  return {
    open: px(first.open, market),
    close: px(last.close, market),
    high: px(maxOf(candles, 'high'), market),
    low: px(minOf(candles, 'low'), market),
    change: px(change, market),
    changePercent: percentOf(change, first.open, 4),
    volume: volumeNumber(candles.reduce((sum, c) => sum + c.volumeMicro, 0n)),
    from: new Date(first.time).toISOString(),
    to: new Date(last.time).toISOString(),
  };
}
