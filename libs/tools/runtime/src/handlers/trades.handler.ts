import { Inject, Injectable } from '@nestjs/common';
import { GET_RECENT_TRADES, GET_TOP_TRADES, type ToolData, type ToolInput } from '@paper/contracts';
import { DataSource } from 'typeorm';
import { iso, percentOf, px, toBig, usd, usdText } from '../money/money-format';
import { shortAddress, type ToolHandler, type ToolOutcome } from './tool-handler';
import type { MarketName } from '@paper/markets';
import { topProfitablePositionRows } from '@paper/exchange-data';

const TOP_TRADES_LIMIT = 25;
const RECENT_TRADES_LIMIT = 50;
const WINDOW_MS: Record<string, number | null> = { '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000, all: null };

@Injectable()
export class TopTradesHandler implements ToolHandler<typeof GET_TOP_TRADES> {
  readonly tool = GET_TOP_TRADES;

  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async run(input: ToolInput<typeof GET_TOP_TRADES>): Promise<ToolOutcome<ToolData<typeof GET_TOP_TRADES>>> {
    const span = WINDOW_MS[input.window];
    const since = span === null || span === undefined ? new Date(0) : new Date(Date.now() - span);
    const rows = await topProfitablePositionRows(this.db, since, TOP_TRADES_LIMIT);
    const trades = rows.map((p) => ({
      positionId: p.id,
      trader: p.wallet,
      market: p.market,
      side: p.side,
      leverage: p.leverage,
      marginUsd: usd(p.marginMicro),
      entryPrice: px(p.entryPrice, p.market),
      exitPrice: px(p.exitPrice ?? 0n, p.market),
      pnlUsd: usd(p.pnlMicro ?? 0n),
      pnlPercent: percentOf(p.pnlMicro ?? 0n, p.marginMicro, 2) ?? 0,
      status: p.status === 'liquidated' ? ('liquidated' as const) : ('closed' as const),
      closedAt: p.closedAt ?? p.openedAt,
    }));
    const best = rows[0];
    return {
      summary: best
        ? `${trades.length} profitable trade${trades.length === 1 ? '' : 's'} in the ${input.window} window; the best: ${shortAddress(best.wallet)} ` +
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
    const rows: Record<string, unknown>[] = await this.db.query(
      `WITH p AS (
         SELECT id, wallet, market, side, leverage, margin_micro, notional_micro, entry_price, exit_price, pnl_micro, status, opened_at, closed_at
           FROM exchange.positions WHERE ($1::text IS NULL OR market = $1) AND ($2::text IS NULL OR wallet = $2))
       SELECT * FROM (
         SELECT 'open' AS type, id::text AS id, wallet, market, side, leverage, margin_micro, notional_micro, entry_price AS price,
                NULL::bigint AS pnl, opened_at AS at FROM p
         UNION ALL
         SELECT CASE WHEN status = 'liquidated' THEN 'liquidation' ELSE 'close' END, id::text, wallet, market, side, leverage, margin_micro,
                notional_micro, exit_price, pnl_micro, closed_at FROM p WHERE closed_at IS NOT NULL
       ) events ORDER BY at DESC, id DESC LIMIT ${RECENT_TRADES_LIMIT}`,
      [market, wallet],
    );
    const trades = rows.map((r) => {
      const m = r['market'] as MarketName;
      return {
        type: r['type'] as 'open' | 'close' | 'liquidation',
        positionId: String(r['id']),
        trader: String(r['wallet']),
        market: m,
        side: r['side'] as 'long' | 'short',
        leverage: Number(r['leverage']),
        marginUsd: usd(toBig(r['margin_micro'])),
        notionalUsd: usd(toBig(r['notional_micro'])),
        price: px(toBig(r['price']), m),
        pnlUsd: r['pnl'] === null ? null : usd(toBig(r['pnl'])),
        time: iso(r['at'] as Date)!,
      };
    });
    const scope = [market ? `${market}` : null, wallet ? `by ${shortAddress(wallet)}` : null].filter(Boolean).join(' ');
    const counts = ['open', 'close', 'liquidation'].map((t) => [t, trades.filter((x) => x.type === t).length] as const);
    return {
      summary:
        trades.length === 0
          ? `No trades${scope ? ` ${scope}` : ''} yet.`
          : `The latest ${trades.length} trade event${trades.length === 1 ? '' : 's'}${scope ? ` ${scope}` : ''}: ` +
            counts.map(([t, n]) => `${n} ${t}${n === 1 ? '' : 's'}`).join(', ') + `; the newest at ${trades[0]!.time}.`,
      data: { market, wallet, trades },
    };
  }
}
