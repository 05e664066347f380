import { Inject, Injectable } from '@nestjs/common';
import { GET_LEADERBOARD, LEADERBOARD_PAGE_SIZE, type ToolData, type ToolInput } from '@paper/contracts';
import { DataSource } from 'typeorm';
import { OpenPositionsReader } from '../exchange/open-positions.reader';
import { signedUsdText, toBig, usd } from '../money/money-format';
import { shortAddress, type ToolHandler, type ToolOutcome } from './tool-handler';

type Data = ToolData<typeof GET_LEADERBOARD>;
type Row = Data['rows'][number];

const WINDOW_INTERVAL: Record<string, string | null> = { '24h': '24 hours', '7d': '7 days', '30d': '30 days', all: null };

const ACCOUNTS_SQL = `
  WITH w AS (
    SELECT wallet,
           COALESCE(SUM(pnl_micro) FILTER (WHERE closed_at >= $1), 0) AS realized,
           COALESCE(SUM(notional_micro) FILTER (WHERE opened_at >= $1), 0)
             + COALESCE(SUM(notional_micro) FILTER (WHERE closed_at >= $1), 0) AS volume,
           COUNT(*) FILTER (WHERE opened_at >= $1 OR closed_at >= $1 OR status = 'open') AS active,
           MAX(GREATEST(opened_at, COALESCE(closed_at, opened_at))) AS last_trade
      FROM exchange.positions GROUP BY wallet)
  SELECT a.wallet, a.display_name, a.free_micro, a.locked_micro, a.queued_micro, a.paper_micro, a.staked_micro,
         COALESCE(a.last_active_at, w.last_trade) AS last_active, w.realized, w.volume
    FROM exchange.accounts a JOIN w ON w.wallet = a.wallet
   WHERE w.active > 0`;

@Injectable()
export class LeaderboardHandler implements ToolHandler<typeof GET_LEADERBOARD> {
  readonly tool = GET_LEADERBOARD;

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    private readonly open: OpenPositionsReader,
  ) {}

  async run(input: ToolInput<typeof GET_LEADERBOARD>): Promise<ToolOutcome<Data>> {
    const interval = WINDOW_INTERVAL[input.window];
    const since = interval ? new Date(Date.now() - intervalMs(input.window)) : new Date(0);
    const [accounts, open] = await Promise.all([this.db.query(ACCOUNTS_SQL, [since]) as Promise<Record<string, unknown>[]>, this.open.valued()]);
    const live = new Map<string, { pnl: bigint; notional: bigint; count: number }>();
    for (const { position, value } of open.positions) {
      const entry = live.get(position.wallet) ?? { pnl: 0n, notional: 0n, count: 0 };
      entry.pnl += value.pnlMicro;
      entry.notional += position.notionalMicro;
      entry.count += 1;
      live.set(position.wallet, entry);
    }
    const entries = accounts
      .map((a) => {
        const wallet = String(a['wallet']);
        const l = live.get(wallet) ?? { pnl: 0n, notional: 0n, count: 0 };
        const realized = toBig(a['realized']);
        const lastActive = a['last_active'] ? new Date(a['last_active'] as string).getTime() : null;
        return {
          total: realized + l.pnl,
          row: {
            rank: 0,
            address: wallet,
            name: (a['display_name'] as string | null) ?? null,
            lastActiveTs: lastActive,
            totalWindowedPnl: usd(realized + l.pnl),
            realizedPnl: usd(realized),
            currentUnrealizedPnl: usd(l.pnl),
            currentBalance: usd(toBig(a['free_micro']) + toBig(a['locked_micro']) + toBig(a['queued_micro'])),
            currentQueued: usd(toBig(a['queued_micro'])),
            currentOpenNotional: usd(l.notional),
            totalVolume: usd(toBig(a['volume'])),
            paperTotal: usd(toBig(a['paper_micro']) + toBig(a['staked_micro'])),
            currentOpenPositionCount: l.count,
          } satisfies Row,
        };
      })
      .sort((a, b) => (b.total > a.total ? 1 : b.total < a.total ? -1 : a.row.address.localeCompare(b.row.address)));
    const leaderTotal = entries[0]?.total ?? 0n;
    const ranked = entries.map((entry, i) => ({ ...entry.row, rank: i + 1 }));
    const q = input.q?.trim().toLowerCase();
    const filtered = q ? ranked.filter((r) => r.address.includes(q) || (r.name ?? '').toLowerCase().includes(q)) : ranked;
    const sorted = [...filtered].sort(compareBy(input.sortKey, input.sortDir));
    const rows = sorted.slice(input.page * LEADERBOARD_PAGE_SIZE, (input.page + 1) * LEADERBOARD_PAGE_SIZE);
    const totalPages = Math.ceil(filtered.length / LEADERBOARD_PAGE_SIZE);
    const leader = ranked[0];
    const summary =
      filtered.length === 0
        ? `No traders${q ? ` match "${input.q}"` : ''} in the ${input.window} window.`
        : `${filtered.length} trader${filtered.length === 1 ? '' : 's'}${q ? ` matching "${input.q}"` : ''} in the ${input.window} window` +
          (leader ? `; #1 is ${leader.name ?? shortAddress(leader.address)} with ${signedUsdText(leaderTotal)}` : '') +
          `. Page ${input.page + 1} of ${Math.max(1, totalPages)} sorted by ${input.sortKey} ${input.sortDir}.`;
    return {
      summary,
      data: {
        window: input.window,
        sortKey: input.sortKey,
        sortDir: input.sortDir,
        page: input.page,
        pageSize: LEADERBOARD_PAGE_SIZE,
        totalRows: filtered.length,
        totalPages,
        rows,
      },
    };
  }
}

function intervalMs(window: string): number {
  const day = 86_400_000;
  return window === '24h' ? day : window === '7d' ? 7 * day : 30 * day;
}

function compareBy(key: keyof Row, dir: 'asc' | 'desc'): (a: Row, b: Row) => number {
  const sign = dir === 'asc' ? 1 : -1;
  return (a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === y) return a.rank - b.rank;
    if (x === null) return 1;
    if (y === null) return -1;
    const order = typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : (x as number) < (y as number) ? -1 : 1;
    return order * sign;
  };
}
