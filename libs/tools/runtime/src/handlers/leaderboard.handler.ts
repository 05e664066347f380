import { Inject, Injectable } from '@nestjs/common';
import { GET_LEADERBOARD, LEADERBOARD_PAGE_SIZE, type ToolData, type ToolInput } from '@paper/contracts';
import { leaderboardAccounts } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import { OpenPositionsReader } from '../exchange/open-positions.reader';
import { signedUsdText, usd } from '../money/money-format';
import { shortAddress, type ToolHandler, type ToolOutcome } from './tool-handler';

type Data = ToolData<typeof GET_LEADERBOARD>;
type Row = Data['rows'][number];

const WINDOW_INTERVAL: Record<string, string | null> = {
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
  all: null,
};

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
    const [accounts, open] = await Promise.all([leaderboardAccounts(this.db, since), this.open.valued()]);
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
        const wallet = a.wallet;
        const l = live.get(wallet) ?? { pnl: 0n, notional: 0n, count: 0 };
        const realized = a.realizedMicro;
        const lastActive = a.lastActive ? a.lastActive.getTime() : null;
        return {
          total: realized + l.pnl,
          row: {
            rank: 0,
            address: wallet,
            name: a.displayName ?? null,
            lastActiveTs: lastActive,
            totalWindowedPnl: usd(realized + l.pnl),
            realizedPnl: usd(realized),
            currentUnrealizedPnl: usd(l.pnl),
            currentBalance: usd(a.freeMicro + a.lockedMicro + a.queuedMicro),
            currentQueued: usd(a.queuedMicro),
            currentOpenNotional: usd(l.notional),
            totalVolume: usd(a.volumeMicro),
            paperTotal: usd(a.paperMicro + a.stakedMicro),
            currentOpenPositionCount: l.count,
          } satisfies Row,
        };
      })
      .sort((a, b) => (b.total > a.total ? 1 : b.total < a.total ? -1 : a.row.address.localeCompare(b.row.address)));
    const leaderTotal = entries[0]?.total ?? 0n;
    const ranked = entries.map((entry, i) => ({ ...entry.row, rank: i + 1 }));
    const q = input.q?.trim().toLowerCase();
    const filtered = q
      ? ranked.filter((r) => r.address.includes(q) || (r.name ?? '').toLowerCase().includes(q))
      : ranked;
    const sorted = [...filtered].sort(compareBy(input.sortKey, input.sortDir));
    const rows = sorted.slice(input.page * LEADERBOARD_PAGE_SIZE, (input.page + 1) * LEADERBOARD_PAGE_SIZE);
    const totalPages = Math.ceil(filtered.length / LEADERBOARD_PAGE_SIZE);
    const leader = ranked[0];
    const summary =
      filtered.length === 0
        ? `No traders${q ? ` match "${input.q}"` : ''} in the ${input.window} window.`
        : `${filtered.length} trader${filtered.length === 1 ? '' : 's'}${q ? ` matching "${input.q}"` : ''} in the ` +
          `${input.window} window` +
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
    const order =
      typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : (x as number) < (y as number) ? -1 : 1;
    return order * sign;
  };
}
