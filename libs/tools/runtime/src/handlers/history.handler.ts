import { positionTerms, settlementTerms } from '../exchange/position-terms';
import { Inject, Injectable } from '@nestjs/common';
import {
  GET_PORTFOLIO_HISTORY,
  GET_TRADE_HISTORY,
  TRADE_HISTORY_PAGE_SIZE,
  type ToolData,
  type ToolInput,
} from '@paper/contracts';
import { accountBalances, equitySnapshots, settledPositionRows } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import type { ToolContext } from '../context/tool-context';
import { OpenPositionsReader } from '../exchange/open-positions.reader';
import { percentOf, signedUsdText, usd, usdText } from '../money/money-format';
import { resolveWallet, shortAddress, type ToolHandler, type ToolOutcome } from './tool-handler';

@Injectable()
export class TradeHistoryHandler implements ToolHandler<typeof GET_TRADE_HISTORY> {
  readonly tool = GET_TRADE_HISTORY;

  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async run(
    input: ToolInput<typeof GET_TRADE_HISTORY>,
    ctx: ToolContext,
  ): Promise<ToolOutcome<ToolData<typeof GET_TRADE_HISTORY>>> {
    const wallet = resolveWallet(this.tool, input.wallet, ctx);
    const limit = input.pages * TRADE_HISTORY_PAGE_SIZE;
    const rows = await settledPositionRows(this.db, wallet, limit + 1);
    const hasMore = rows.length > limit;
    const trades = rows.slice(0, limit).map((p) => ({
      ...positionTerms(p),
      notionalUsd: usd(p.notionalMicro),
      ...settlementTerms(p),
      feeUsd: usd(p.feeMicro),
      paperMinted: usd(p.rewardMintedMicro),
      queuedUsd: usd(p.queuedMicro),
      openedAt: p.openedAt,
    }));
    const total = rows.slice(0, limit).reduce((s, r) => s + (r.pnlMicro ?? 0n), 0n);
    const liquidations = trades.filter((t) => t.status === 'liquidated').length;
    return {
      summary:
        trades.length === 0
          ? `${shortAddress(wallet)} has no closed trades yet.`
          : `${trades.length} closed trade${trades.length === 1 ? '' : 's'} of ${shortAddress(wallet)} (newest ` +
            `first${hasMore ? `, more beyond ${input.pages} page${input.pages === 1 ? '' : 's'}` : ''}): ` +
            `settled PnL ${signedUsdText(total)}${liquidations > 0 ? `, ${liquidations} liquidated` : ''}.`,
      data: { wallet, pages: input.pages, pageSize: TRADE_HISTORY_PAGE_SIZE, hasMore, trades },
    };
  }
}

const RANGE_INTERVAL: Record<string, '1 hour' | '1 day' | '7 days' | null> = {
  '1h': '1 hour',
  '1d': '1 day',
  '1w': '7 days',
  all: null,
};
/** At most this many points: longer ranges are evenly thinned (the newest point is always kept). */
const MAX_POINTS = 500;

@Injectable()
export class PortfolioHistoryHandler implements ToolHandler<typeof GET_PORTFOLIO_HISTORY> {
  readonly tool = GET_PORTFOLIO_HISTORY;

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    private readonly open: OpenPositionsReader,
  ) {}

  async run(
    input: ToolInput<typeof GET_PORTFOLIO_HISTORY>,
    ctx: ToolContext,
  ): Promise<ToolOutcome<ToolData<typeof GET_PORTFOLIO_HISTORY>>> {
    const wallet = resolveWallet(this.tool, input.wallet, ctx);
    const interval = RANGE_INTERVAL[input.range];
    const [snapshots, a, open] = await Promise.all([
      equitySnapshots(this.db, wallet, interval ?? null),
      accountBalances(this.db, wallet),
      this.open.valued(wallet),
    ]);
    const points = thin(snapshots).map((s) => ({
      time: s.takenAt.toISOString(),
      equityMicro: s.equityMicro,
      free: s.freeMicro,
      locked: s.lockedMicro,
      unrealized: s.unrealizedPnlMicro,
    }));
    if (a) {
      const unrealized = open.positions.reduce((s, p) => s + p.value.pnlMicro, 0n);
      const margins = open.positions.reduce((s, p) => s + p.position.marginMicro, 0n);
      points.push({
        time: new Date().toISOString(),
        equityMicro: a.freeMicro + a.queuedMicro + margins + unrealized,
        free: a.freeMicro,
        locked: a.lockedMicro,
        unrealized,
      });
    }
    const first = points[0];
    const last = points[points.length - 1];
    const change = first && last ? last.equityMicro - first.equityMicro : 0n;
    return {
      summary: last
        ? `${shortAddress(wallet)} equity ${usdText(last.equityMicro)}, ${signedUsdText(change)} over ` +
          `${input.range === 'all' ? 'its whole history' : `the last ${input.range}`} (${points.length} ` +
          `point${points.length === 1 ? '' : 's'}).`
        : `${shortAddress(wallet)} has no exchange account yet, so there is no equity history.`,
      data: {
        wallet,
        range: input.range,
        points: points.map((p) => ({
          time: p.time,
          equityUsd: usd(p.equityMicro),
          freeUsd: usd(p.free),
          lockedUsd: usd(p.locked),
          unrealizedPnlUsd: usd(p.unrealized),
        })),
        changeUsd: usd(change),
        changePercent: first ? percentOf(change, first.equityMicro, 2) : null,
      },
    };
  }
}

function thin<T>(rows: T[]): T[] {
  if (rows.length <= MAX_POINTS) return rows;
  const step = rows.length / MAX_POINTS;
  const out: T[] = [];
  for (let i = 0; i < MAX_POINTS - 1; i += 1) out.push(rows[Math.floor(i * step)]!);
  out.push(rows[rows.length - 1]!);
  return out;
}
