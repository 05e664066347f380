import { positionTerms, settlementTerms } from '../exchange/position-terms';
import { Inject, Injectable } from '@nestjs/common';
import { GET_RECENT_TRADES, GET_TOP_TRADES, type ToolData, type ToolInput } from '@paper/contracts';
import { recentTradeEvents, topProfitablePositionRows } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import { percentOf, px, usd, usdText } from '../money/money-format';
import { shortAddress, type ToolHandler, type ToolOutcome } from './tool-handler';

const TOP_TRADES_LIMIT = 25;
const RECENT_TRADES_LIMIT = 50;
const WINDOW_MS: Record<string, number | null> = {
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
  all: null,
};

@Injectable()
export class TopTradesHandler implements ToolHandler<typeof GET_TOP_TRADES> {
  readonly tool = GET_TOP_TRADES;

  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async run(input: ToolInput<typeof GET_TOP_TRADES>): Promise<ToolOutcome<ToolData<typeof GET_TOP_TRADES>>> {
    const span = WINDOW_MS[input.window];
    const since = span === null || span === undefined ? new Date(0) : new Date(Date.now() - span);
    const rows = await topProfitablePositionRows(this.db, since, TOP_TRADES_LIMIT);
    const trades = rows.map((p) => ({
      ...positionTerms(p),
      trader: p.wallet,
      ...settlementTerms(p),
      pnlPercent: percentOf(p.pnlMicro ?? 0n, p.marginMicro, 2) ?? 0,
    }));
    const best = rows[0];
    return {
      summary: best
        ? `${trades.length} profitable trade${trades.length === 1 ? '' : 's'} in the ${input.window} window; the ` +
          `best: ${shortAddress(best.wallet)} ` +
          `${best.side} ${best.market} ${best.leverage}x made ${usdText(best.pnlMicro ?? 0n)}.`
        : `No profitable trades were closed in the ${input.window} window.`,
      data: { window: input.window, trades },
    };
  }
}

@Injectable()
export class RecentTradesHandler implements ToolHandler<typeof GET_RECENT_TRADES> {
  readonly tool = GET_RECENT_TRADES;

  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async run(input: ToolInput<typeof GET_RECENT_TRADES>): Promise<ToolOutcome<ToolData<typeof GET_RECENT_TRADES>>> {
    const wallet = input.wallet?.toLowerCase() ?? null;
    const market = input.market ?? null;
    const events = await recentTradeEvents(this.db, { market, wallet }, RECENT_TRADES_LIMIT);
    const trades = events.map((e) => ({
      type: e.type,
      positionId: e.positionId,
      trader: e.wallet,
      market: e.market,
      side: e.side,
      leverage: e.leverage,
      marginUsd: usd(e.marginMicro),
      notionalUsd: usd(e.notionalMicro),
      price: px(e.price, e.market),
      pnlUsd: e.pnlMicro === null ? null : usd(e.pnlMicro),
      time: e.at.toISOString(),
    }));
    const scope = [market ? `${market}` : null, wallet ? `by ${shortAddress(wallet)}` : null].filter(Boolean).join(' ');
    const counts = ['open', 'close', 'liquidation'].map((t) => [t, trades.filter((x) => x.type === t).length] as const);
    return {
      summary:
        trades.length === 0
          ? `No trades${scope ? ` ${scope}` : ''} yet.`
          : `The latest ${trades.length} trade event${trades.length === 1 ? '' : 's'}${scope ? ` ${scope}` : ''}: ` +
            counts.map(([t, n]) => `${n} ${t}${n === 1 ? '' : 's'}`).join(', ') +
            `; the newest at ${trades[0]!.time}.`,
      data: { market, wallet, trades },
    };
  }
}
