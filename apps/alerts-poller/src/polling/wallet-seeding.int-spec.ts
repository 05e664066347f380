import type { TradeEvent } from '../tool-api/tool-data';
import { withPollerKit } from '../testing/poller-test-kit';
import {
  account,
  markets as marketsData,
  position,
  recentTrades,
  trade,
  trader,
  traderPage,
} from '../testing/tool-fixtures';

const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const markets = (btc: number) => marketsData({ BTC: { markPrice: btc } });

/** Many new watches at once: liquidation coverage from a scan of the trader listing, not one account read per watch. */
describe('seeding many watches (PostgreSQL + Redis, tool API stand-in)', () => {
  const WATCHES = 120;
  const TRADERS = 200;
  const WITH_POSITIONS = [7, 19, 64, 112, 118];
  const t = withPollerKit();
  let trades: TradeEvent[];

  const reads = (tool: string) => t.api.calls.filter((c) => c.tool === tool);
  const positionsKnown = async () =>
    (
      await t.kit.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM alerts.rule_state WHERE rule = 'positions' AND (state->>'enabled')::boolean`,
      )
    )[0]!.n;

  it('covers every watch after one scan and reads only the wallets with open positions; then calls grow with what changed', async () => {
    trades = [];
    // Traders in address order: 0..199 except 100..109, which never traded (not listed). Watched wallets are 0..119.
    const listed = Array.from({ length: TRADERS }, (_, i) => i).filter((i) => i < 100 || i >= 110);
    t.api.data['get_recent_trades'] = () => recentTrades(trades);
    t.api.data['get_markets'] = markets(100_000);
    t.api.data['get_leaderboard'] = (q: URLSearchParams) => {
      expect(Object.fromEntries(q)).toMatchObject({ window: 'all', sortKey: 'address', sortDir: 'asc' });
      const page = Number(q.get('page'));
      const rows = listed
        .slice(page * 25, page * 25 + 25)
        .map((i) => trader(addr(i), { currentOpenPositionCount: WITH_POSITIONS.includes(i) ? 1 : 0 }));
      return traderPage(page, rows, listed.length);
    };
    t.api.data['get_account'] = (q: URLSearchParams) => {
      const wallet = q.get('wallet')!;
      const n = parseInt(wallet.slice(2), 16);
      return account({
        wallet,
        positions: WITH_POSITIONS.includes(n)
          ? [position(`p${n}`, { bustPrice: 99_000, liquidationDistancePercent: 1 })]
          : [],
      });
    };
    const accountId = await t.kit.account();
    await t.kit.channel(accountId);
    const created = new Date(Date.now() - 60_000);
    for (let i = 0; i < WATCHES; i += 1)
      await t.kit.watch(
        accountId,
        addr(i),
        { liquidation: { enabled: true, belowPct: 0.5 }, sessionKey: { enabled: false } },
        created,
      );
    const p = t.kit.poller();

    const first = await p.wallets.run();
    expect(first).toMatchObject({
      watches: WATCHES,
      accountReads: 0,
      scanPages: 8,
      unseeded: WITH_POSITIONS.length,
      alerts: 0,
    });
    expect(reads('get_leaderboard')).toHaveLength(8);
    expect(await positionsKnown()).toBe(WATCHES - WITH_POSITIONS.length);

    t.api.calls.length = 0;
    expect(await p.wallets.run()).toMatchObject({
      accountReads: WITH_POSITIONS.length,
      scanPages: 0,
      unseeded: 0,
      alerts: 0,
    });
    expect(
      reads('get_account')
        .map((c) => parseInt(new URLSearchParams(c.query).get('wallet')!.slice(2), 16))
        .sort((a, b) => a - b),
    ).toEqual(WITH_POSITIONS);
    expect(await positionsKnown()).toBe(WATCHES);

    t.api.calls.length = 0;
    expect(await p.wallets.run()).toMatchObject({ accountReads: 0, scanPages: 0, alerts: 0 });
    expect(t.api.calls.map((c) => c.tool).sort()).toEqual(['get_markets', 'get_recent_trades']);

    // Price moves need no account read: one alert per position at risk.
    t.api.calls.length = 0;
    t.api.data['get_markets'] = markets(99_400);
    expect(await p.wallets.run()).toMatchObject({ accountReads: 0, alerts: WITH_POSITIONS.length });
    expect(reads('get_account')).toEqual([]);

    // A new open is read once (bust price); a close needs no read.
    t.api.calls.length = 0;
    const time = new Date().toISOString();
    trades = [
      trade('open', 'n1', { trader: addr(33), market: 'ETH', leverage: 10, notionalUsd: 1000, price: 3500, time }),
      trade('close', 'p64', { trader: addr(64), price: 99_400, pnlUsd: -60, time }),
    ];
    expect(await p.wallets.run()).toMatchObject({ events: 2, accountReads: 1, alerts: 2 });
    expect(reads('get_account').map((c) => c.query)).toEqual([`wallet=${addr(33)}`]);
    const [state] = await t.kit.query<{ state: { positions: Record<string, unknown> } }>(
      `SELECT s.state FROM alerts.rule_state s JOIN alerts.watches w ON w.id = s.watch_id WHERE w.address = $1 AND s.rule = 'positions'`,
      [addr(64)],
    );
    expect(state!.state.positions).toEqual({});
  });
});
