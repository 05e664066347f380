import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { GET_PRICE_CHART, isCodedError } from '@paper/contracts';
import {
  CandleSource,
  ToolResultCache,
  coerceQueryArgs,
  mapToolError,
  parseToolInput,
  px,
  rangeStats,
} from '@paper/tools-runtime';
import type { Request, Response } from 'express';
import { RestToolCalls } from '../tools/rest-tool-calls.service';
import { renderChartError, renderChartPage } from './candlestick-chart.renderer';

/** GET /charts/{market}?interval=&count=: the rendered candlestick chart linked by get_price_chart. */
@Controller('charts')
export class ChartsController {
  constructor(
    private readonly candles: CandleSource,
    private readonly cache: ToolResultCache,
    private readonly calls: RestToolCalls,
  ) {}

  @Get(':market')
  async chart(@Param('market') market: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    try {
      await this.calls.limitPublic(req);
      const args = parseToolInput(GET_PRICE_CHART, {
        ...coerceQueryArgs(GET_PRICE_CHART, req.query as Record<string, string>),
        market: market.toUpperCase(),
      });
      const page = await this.cache.getOrCompute(this.cache.key('chart', args), async () => {
        const candles = await this.candles.latest(args.market, args.interval, args.count);
        const stats = rangeStats(args.market, candles);
        const caption =
          stats.open === null
            ? 'No candles in this range.'
            : `${candles.length} candles from ${stats.from} to ${stats.to}: open ${stats.open}, close ` +
              `${stats.close}, high ${stats.high}, low ${stats.low}, change ${stats.changePercent}%.`;
        return renderChartPage({
          market: args.market,
          interval: args.interval,
          caption,
          candles: candles.map((c) => ({
            time: c.time,
            open: px(c.open, args.market),
            high: px(c.high, args.market),
            low: px(c.low, args.market),
            close: px(c.close, args.market),
          })),
        });
      });
      res.setHeader('Cache-Control', `public, max-age=${Math.max(0, Math.ceil((page.expiresAt - Date.now()) / 1000))}`);
      res.status(200).type('html').send(page.body);
    } catch (error) {
      const mapped = mapToolError(error);
      if (!isCodedError(mapped)) throw mapped;
      for (const [name, value] of Object.entries(mapped.headers)) res.setHeader(name, value);
      res.setHeader('Cache-Control', 'no-store');
      res.status(mapped.status).type('html').send(renderChartError(mapped.message));
    }
  }
}
