/**
 * alerts-poller at 10,000 watches with the default limits (10 tool calls/s, 40 calls per wallet cycle
 * beyond the feed and markets, 4 quiet-wallet refreshes per cycle, 5 s cycles): the built poller app runs
 * against real PostgreSQL and Redis and a local stand-in of the tool API (instant answers; positions,
 * accounts and the trader listing kept in step with its trade feed), so the numbers are the poller's own.
 * Reports how long seeding 10,000 new watches takes until every one has liquidation coverage (and until
 * every rule baseline is read), then the steady state once the quiet-wallet refresh window has passed:
 * tool calls per cycle by tool, cycle duration, and the calls of the naive design (one get_account per
 * watch per cycle) for comparison; plus the poller's peak RSS (from its /metrics).
 * Run: node -r ./tools/dev/register.cjs tools/bench/alerts-poller.bench.ts [watches=10000] [steadyCycles=20] [refreshMs=900000]
 * (builds the apps into dist/bench-<pid> first; fresh database and Redis prefix). A shorter refreshMs
 * reaches the same steady state sooner; the default is the poller's default.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_WALLET_RULES } from '@paper/contracts';
import {
  createTestDatabase,
  json,
  migrateDatabase,
  startFakeServer,
  startStack,
  WORKSPACE_ROOT,
} from '@paper/dev-stack';
import { Client } from 'pg';
import { buildBenchDist, runBench } from './run-bench';
import { residentMemoryMb } from './app-metrics';
import type { MarketName } from '@paper/markets';
import {
  account,
  markets,
  position as fixturePosition,
  recentTrades,
  trade,
  trader,
  traderPage,
} from '../../apps/alerts-poller/src/testing/tool-fixtures';
import type { TradeEvent } from '../../apps/alerts-poller/src/tool-api/tool-data';

const WATCHES = Number(process.argv[2] ?? 10_000);
const STEADY_CYCLES = Number(process.argv[3] ?? 20);
const REFRESH_MS = Number(process.argv[4] ?? 900_000);
const WITH_POSITIONS = Math.floor(WATCHES / 10);
/** Traders on the exchange that nobody watches (they are in the trader listing too). */
const UNWATCHED_TRADERS = WATCHES;
const EVENTS_PER_CYCLE = 10;
const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
const count = (calls: readonly string[]) =>
  calls.reduce<Record<string, number>>((acc, tool) => ({ ...acc, [tool]: (acc[tool] ?? 0) + 1 }), {});

/** The tool API stand-in: a trade feed that advances by EVENTS_PER_CYCLE on every read, and accounts and a trader listing that agree with it. */
async function startExchangeStandIn() {
  let mark = 100_000;
  let nextPosition = 1_000_000;
  let feedReads = 0;
  let trades: TradeEvent[] = [];
  const calls: string[] = [];
  const position = (id: string, market: MarketName) =>
    fixturePosition(id, {
      market,
      leverage: 10,
      notionalUsd: 1000,
      entryPrice: market === 'BTC' ? 100_000 : 3500,
      markPrice: market === 'BTC' ? mark : 3500,
      bustPrice: market === 'BTC' ? 90_500 : 3000,
      liquidationDistancePercent: market === 'BTC' ? 9.5 : 14.3,
      openedAt: new Date().toISOString(),
    });
  const open = new Map<string, ReturnType<typeof position>[]>();
  for (let i = 0; i < WITH_POSITIONS; i += 1) open.set(address(i * 10), [position(String(i + 1), 'BTC')]);
  const listing = Array.from({ length: WATCHES + UNWATCHED_TRADERS }, (_, i) => address(i)).sort();
  const advance = () => {
    feedReads += 1;
    if (feedReads === 1) return;
    mark += feedReads % 2 === 0 ? 50 : -50;
    const now = new Date().toISOString();
    const fresh = Array.from({ length: EVENTS_PER_CYCLE }, (_, k) => {
      const trader = address(1 + ((feedReads * EVENTS_PER_CYCLE + k) % (WATCHES - 1)));
      const held = open.get(trader) ?? [];
      const closing = held.length > 0;
      const id = closing ? held[0]!.positionId : String(nextPosition++);
      open.set(trader, closing ? held.slice(1) : [...held, position(id, 'ETH')]);
      return trade(closing ? 'close' : 'open', id, {
        trader,
        market: 'ETH',
        leverage: 10,
        marginUsd: 100,
        notionalUsd: 1000,
        price: 3500,
        pnlUsd: closing ? -1 : null,
        time: now,
      });
    });
    trades = [...fresh, ...trades].slice(0, 50);
  };
  const leaderboard = (page: number) =>
    traderPage(
      page,
      listing
        .slice(page * 25, page * 25 + 25)
        .map((a) => trader(a, { currentOpenPositionCount: open.get(a)?.length ?? 0 })),
      listing.length,
    );
  const server = await startFakeServer((req, res) => {
    const tool = req.path.split('/').pop()!;
    calls.push(tool);
    if (tool === 'get_recent_trades') advance();
    const wallet = req.query.get('wallet') ?? '';
    const data =
      tool === 'get_recent_trades'
        ? recentTrades(trades)
        : tool === 'get_account'
          ? account({ wallet, positions: open.get(wallet) ?? [] })
          : tool === 'get_markets'
            ? markets({ BTC: { markPrice: mark } })
            : tool === 'get_leaderboard'
              ? leaderboard(Number(req.query.get('page') ?? 0))
              : undefined;
    json(
      res,
      data ? 200 : 404,
      data ? { ok: true, summary: '', data } : { ok: false, error: { code: 'unknown_tool', message: '' } },
    );
  });
  return { ...server, calls };
}

interface LastCycle {
  accountReads: number;
  scanPages: number;
  unseeded: number;
}

async function main(): Promise<void> {
  const distDir = buildBenchDist();
  const database = await createTestDatabase('paper_bench');
  migrateDatabase(database.url, ['alerts']);
  const api = await startExchangeStandIn();
  const db = new Client({ connectionString: database.url });
  await db.connect();
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;
  try {
    const accounts = Array.from({ length: Math.ceil(WATCHES / 4) }, () => randomUUID());
    await db.query(
      `INSERT INTO alerts.accounts (id, token_hash) SELECT unnest($1::uuid[]), md5(random()::text) || md5(random()::text)`,
      [accounts],
    );
    await db.query(
      `INSERT INTO alerts.channels (id, account_id, kind, target, secret) SELECT gen_random_uuid(), unnest($1::uuid[]), 'webhook', 'https://example.com/hook', 'whsec_bench'`,
      [accounts],
    );
    await db.query(
      `INSERT INTO alerts.watches (id, account_id, address, rules, created_at, updated_at) SELECT gen_random_uuid(), a, w, $3::jsonb, now() - interval '1 hour', now() - interval '1 hour' FROM unnest($1::uuid[], $2::text[]) AS x(a, w)`,
      [
        Array.from({ length: WATCHES }, (_, i) => accounts[i % accounts.length]),
        Array.from({ length: WATCHES }, (_, i) => address(i)),
        JSON.stringify(DEFAULT_WALLET_RULES),
      ],
    );

    const start = Date.now();
    stack = await startStack({
      root: WORKSPACE_ROOT,
      apps: ['alerts-poller'],
      databaseUrl: database.url,
      redisUrl: REDIS_URL,
      redisPrefix: `bench${randomBytes(3).toString('hex')}`,
      basePort: 0,
      alertsPort: 0,
      randomAppPorts: true,
      mode: 'dist',
      distDir,
      env: {
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        EXCHANGE_API_URL: api.url,
        ALERTS_ACCOUNT_REFRESH_MS: String(REFRESH_MS),
      },
    });
    const url = stack.appUrls['alerts-poller']!;
    const cycle = async () =>
      (
        await db.query(
          `SELECT last_finished_at, last_duration_ms, details->'last' AS last FROM alerts.poll_status WHERE name = 'wallets'`,
        )
      ).rows[0] as { last_finished_at: Date; last_duration_ms: number; last: LastCycle } | undefined;
    const baselines = async () =>
      (
        (await db.query(`SELECT count(*)::int AS n FROM alerts.rule_state WHERE rule = 'session_key'`)).rows[0] as {
          n: number;
        }
      ).n;
    let seen: Date | undefined;
    let peak = 0;
    let coveredMs = 0;
    let coveredCalls: Record<string, number> = {};
    let baselinesMs = 0;
    const durations: number[] = [];
    const perCycle: Record<string, number>[] = [];
    let callsAtLast = 0;
    // Generous: at the default limits the baselines of 10,000 watches take about half an hour.
    const giveUpAt = start + 4 * 3600_000 + 2 * REFRESH_MS;
    while (durations.length < STEADY_CYCLES) {
      if (Date.now() > giveUpAt)
        throw new Error(
          `no steady state after ${((Date.now() - start) / 60_000).toFixed(0)} min (covered: ${coveredMs > 0}, baselines: ${await baselines()})`,
        );
      await new Promise((r) => setTimeout(r, 200));
      peak = Math.max(peak, await residentMemoryMb(url));
      const row = await cycle();
      if (!row || (seen && row.last_finished_at.getTime() === seen.getTime())) continue;
      seen = row.last_finished_at;
      if (!coveredMs && row.last.unseeded === 0) {
        coveredMs = Date.now() - start;
        coveredCalls = count(api.calls);
      }
      if (coveredMs && !baselinesMs && (await baselines()) >= WATCHES) baselinesMs = Date.now() - start;
      const steady = baselinesMs > 0 && Date.now() - start > baselinesMs + REFRESH_MS;
      if (steady) {
        durations.push(row.last_duration_ms);
        perCycle.push(count(api.calls.slice(callsAtLast)));
      }
      callsAtLast = api.calls.length;
    }
    const tools = ['get_recent_trades', 'get_markets', 'get_account', 'get_leaderboard'];
    const mean = (tool: string) => perCycle.reduce((n, c) => n + (c[tool] ?? 0), 0) / perCycle.length;
    const total = tools.reduce((n, t) => n + mean(t), 0);
    const [{ alerts }] = (await db.query(`SELECT count(*)::int AS alerts FROM alerts.alerts`)).rows as [
      { alerts: number },
    ];
    console.log(
      `| alerts-poller, ${WATCHES.toLocaleString('en-US')} new watches (${WITH_POSITIONS.toLocaleString('en-US')} with an open position, ${(WATCHES + UNWATCHED_TRADERS).toLocaleString('en-US')} traders listed), default limits, ${EVENTS_PER_CYCLE} trade events per cycle | value |`,
    );
    console.log('| --- | ---: |');
    console.log(
      `| every watch covered for liquidation risk (from start-up) | ${(coveredMs / 1000).toFixed(0)} s: ${coveredCalls['get_leaderboard'] ?? 0} listing pages, ${coveredCalls['get_account'] ?? 0} account reads |`,
    );
    console.log(
      `| every rule baseline read (session keys: one read per wallet, lowest priority) | ${(baselinesMs / 1000).toFixed(0)} s |`,
    );
    console.log(
      `| steady state (${STEADY_CYCLES} cycles, more than ${(REFRESH_MS / 60_000).toFixed(0)} min after the baselines): tool calls per cycle | ${tools.map((t) => `${t} ${mean(t).toFixed(1)}`).join(', ')}; ${total.toFixed(1)} in all (${(total / 5).toFixed(1)}/s against a limit of 10/s) |`,
    );
    console.log(`| steady wallet cycle p50 / p99 | ${pct(durations, 50)} / ${pct(durations, 99)} ms |`);
    console.log(
      `| naive design: one get_account per watch per cycle | ${WATCHES.toLocaleString('en-US')} calls per cycle (${(WATCHES / total).toFixed(0)}x more) |`,
    );
    console.log(`| alerts raised (opened / closed for the wallets that traded) | ${alerts} |`);
    console.log(`| alerts-poller peak RSS | ${peak.toFixed(0)} MB |`);
  } finally {
    await stack?.stop();
    await db.end();
    await api.close();
    await database.drop();
  }
}

runBench(main);
