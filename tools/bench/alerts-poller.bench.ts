/**
 * alerts-poller at 10,000 watches: the built poller app runs against real PostgreSQL and Redis and a
 * local stand-in of the tool API (instant answers, positions kept in step with its trade feed), so the
 * numbers are the poller's own cost. Reports the duration of wallet poll cycles, the tool calls each
 * makes, the baseline measured in the same run (one get_account per watch per cycle, the naive design),
 * and the poller's peak RSS (from its /metrics).
 * Run: node -r ./tools/dev/register.cjs tools/bench/alerts-poller.bench.ts [watches, default 10000] [cycles, default 20]
 * (builds the apps into dist/bench-<pid> first; fresh database and Redis prefix).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_WALLET_RULES } from '@paper/contracts';
import { createTestDatabase, json, migrateDatabase, startFakeServer, startStack, WORKSPACE_ROOT } from '@paper/dev-stack';
import { Client } from 'pg';

const WATCHES = Number(process.argv[2] ?? 10_000);
const CYCLES = Number(process.argv[3] ?? 20);
const WITH_POSITIONS = Math.floor(WATCHES / 10);
const EVENTS_PER_CYCLE = 10;
const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;

async function rss(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(text.split('\n').find((l) => l.startsWith('process_resident_memory_bytes'))?.split(' ').pop() ?? NaN) / 1e6;
}

/** The tool API stand-in: a trade feed that advances by EVENTS_PER_CYCLE on every read, and accounts that agree with it. */
async function startExchangeStandIn() {
  let mark = 100_000;
  let nextPosition = 1_000_000;
  let feedReads = 0;
  let trades: object[] = [];
  const calls: string[] = [];
  const position = (id: string, market: 'BTC' | 'ETH') => ({
    positionId: id, market, side: 'long', marginUsd: 100, leverage: 10, notionalUsd: 1000, entryPrice: market === 'BTC' ? 100_000 : 3500, markPrice: market === 'BTC' ? mark : 3500,
    bustPrice: market === 'BTC' ? 90_500 : 3000, estimatedPnlUsd: 0, estimatedPnlPercent: 0, liquidationDistancePercent: market === 'BTC' ? 9.5 : 14.3, liquidationRiskPercent: 0, openedAt: new Date().toISOString(),
  });
  const open = new Map<string, ReturnType<typeof position>[]>();
  for (let i = 0; i < WITH_POSITIONS; i += 1) open.set(address(i), [position(String(i + 1), 'BTC')]);
  const advance = () => {
    feedReads += 1;
    if (feedReads === 1) return;
    mark += feedReads % 2 === 0 ? 50 : -50;
    const now = new Date().toISOString();
    const fresh = Array.from({ length: EVENTS_PER_CYCLE }, (_, k) => {
      const trader = address(WITH_POSITIONS + ((feedReads * EVENTS_PER_CYCLE + k) % (WATCHES - WITH_POSITIONS)));
      const held = open.get(trader) ?? [];
      const closing = held.length > 0;
      const id = closing ? held[0]!.positionId : String(nextPosition++);
      open.set(trader, closing ? held.slice(1) : [...held, position(id, 'ETH')]);
      return { type: closing ? 'close' : 'open', positionId: id, trader, market: 'ETH', side: 'long', leverage: 10, marginUsd: 100, notionalUsd: 1000, price: 3500, pnlUsd: closing ? -1 : null, time: now };
    });
    trades = [...fresh, ...trades].slice(0, 50);
  };
  const server = await startFakeServer((req, res) => {
    const tool = req.path.split('/').pop()!;
    calls.push(tool);
    if (tool === 'get_recent_trades') advance();
    const wallet = req.query.get('wallet') ?? '';
    const data =
      tool === 'get_recent_trades' ? { market: null, wallet: null, trades }
      : tool === 'get_account' ? { wallet, exists: true, displayName: null, freeUsd: 900, lockedUsd: 100, queuedUsd: 0, unrealizedPnlUsd: 0, equityUsd: 1000, paper: 0, paperStaked: 0, positions: open.get(wallet) ?? [], pendingIntents: [], sessionKeys: [], lifetime: {} }
      : tool === 'get_markets' ? { tradingEnabled: true, markets: [{ market: 'BTC', markPrice: mark, open: true, status: 'open' }, { market: 'ETH', markPrice: 3500, open: true, status: 'open' }] }
      : undefined;
    json(res, data ? 200 : 404, data ? { ok: true, summary: '', data } : { ok: false, error: { code: 'unknown_tool', message: '' } });
  });
  return { ...server, calls };
}

async function main(): Promise<void> {
  const distDir = path.join(WORKSPACE_ROOT, 'dist', `bench-${process.pid}`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildAll } = require('../dev/build-app.cjs') as { buildAll(dir: string): unknown };
  buildAll(distDir);
  process.env['STACK_DIST_DIR'] = distDir;
  const database = await createTestDatabase('paper_bench');
  migrateDatabase(database.url, ['alerts']);
  const api = await startExchangeStandIn();
  const db = new Client({ connectionString: database.url });
  await db.connect();
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;
  try {
    const accounts = Array.from({ length: Math.ceil(WATCHES / 4) }, () => randomUUID());
    await db.query(`INSERT INTO alerts.accounts (id, token_hash) SELECT unnest($1::uuid[]), md5(random()::text) || md5(random()::text)`, [accounts]);
    await db.query(`INSERT INTO alerts.channels (id, account_id, kind, target, secret) SELECT gen_random_uuid(), unnest($1::uuid[]), 'webhook', 'https://example.com/hook', 'whsec_bench'`, [accounts]);
    await db.query(
      `INSERT INTO alerts.watches (id, account_id, address, rules, created_at) SELECT gen_random_uuid(), a, w, $3::jsonb, now() - interval '1 hour' FROM unnest($1::uuid[], $2::text[]) AS x(a, w)`,
      [Array.from({ length: WATCHES }, (_, i) => accounts[i % accounts.length]), Array.from({ length: WATCHES }, (_, i) => address(i)), JSON.stringify(DEFAULT_WALLET_RULES)],
    );

    const seedStart = Date.now();
    stack = await startStack({
      root: WORKSPACE_ROOT, apps: ['alerts-poller'], databaseUrl: database.url, redisUrl: REDIS_URL, redisPrefix: `bench${randomBytes(3).toString('hex')}`,
      basePort: 0, alertsPort: 0, randomAppPorts: true, mode: 'dist', distDir,
      env: { LOG_LEVEL: 'warn', NODE_ENV: 'test', EXCHANGE_API_URL: api.url, ALERTS_POLL_MS: '1000', ALERTS_TOOL_CALLS_PER_SECOND: '100000', ALERTS_ACCOUNT_CONCURRENCY: '16', ALERTS_ACCOUNT_FETCH_MAX: String(WATCHES) },
    });
    const running = stack;
    const url = running.appUrls['alerts-poller']!;
    let peak = await rss(url);
    let steadyPeak = 0;
    let seedPeak = 0;
    const cycle = async () => (await db.query(`SELECT last_finished_at, last_duration_ms, details->'last' AS last FROM alerts.poll_status WHERE name = 'wallets'`)).rows[0] as { last_finished_at: Date; last_duration_ms: number; last: { accountReads: number } } | undefined;
    let seen: Date | undefined;
    let seedMs = 0;
    let seedCalls = 0;
    const durations: number[] = [];
    const reads: number[] = [];
    let callsAtLast = 0;
    while (durations.length < CYCLES) {
      await new Promise((r) => setTimeout(r, 100));
      peak = Math.max(peak, await rss(url));
      const row = await cycle();
      if (!row || (seen && row.last_finished_at.getTime() === seen.getTime())) continue;
      seen = row.last_finished_at;
      if (seedMs === 0) {
        seedMs = row.last_duration_ms;
        seedCalls = api.calls.length;
        seedPeak = peak;
        // A fresh process for the steady cycles: its RSS is not inflated by the seeding cycle.
        await running.stopApp('alerts-poller');
        await running.restartApp('alerts-poller');
        seen = (await cycle())?.last_finished_at;
        callsAtLast = api.calls.length;
        continue;
      }
      durations.push(row.last_duration_ms);
      steadyPeak = Math.max(steadyPeak, await rss(url));
      reads.push(api.calls.length - callsAtLast);
      callsAtLast = api.calls.length;
    }
    const [{ states, alerts }] = (await db.query(`SELECT (SELECT count(*)::int FROM alerts.rule_state) AS states, (SELECT count(*)::int FROM alerts.alerts) AS alerts`)).rows as [{ states: number; alerts: number }];
    const sample = 2000;
    let t = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < sample) await (await fetch(`${api.url}/api/v1/tools/get_account?wallet=${address(WITH_POSITIONS + next++)}`)).arrayBuffer();
    }));
    const naiveMs = ((performance.now() - t) / sample) * WATCHES;
    t = 0;
    const p50 = pct(durations, 50);
    const meanCalls = reads.reduce((a, b) => a + b, 0) / reads.length;
    console.log(`| alerts-poller, ${WATCHES.toLocaleString('en-US')} watches (${WITH_POSITIONS} with an open position), ${EVENTS_PER_CYCLE} trade events per cycle | value |`);
    console.log('| --- | ---: |');
    console.log(`| seeding cycle: every account read once (${seedCalls} calls), ${states} rule-state rows written | ${(seedMs / 1000).toFixed(1)} s (${((Date.now() - seedStart) / 1000).toFixed(0)} s including start-up) |`);
    console.log(`| wallet cycle p50 / p99 over ${CYCLES} cycles | ${p50} / ${pct(durations, 99)} ms |`);
    console.log(`| watched wallets evaluated per cycle / per second of cycle time at p50 | ${WATCHES.toLocaleString('en-US')} / ${Math.round((WATCHES / p50) * 1000).toLocaleString('en-US')} |`);
    console.log(`| tool calls per cycle (mean: 1 trade feed + 1 markets + accounts of wallets that traded) | ${meanCalls.toFixed(1)} |`);
    console.log(`| baseline: one get_account per watch per cycle (same stand-in, concurrency 16) | ${WATCHES.toLocaleString('en-US')} calls, ${(naiveMs / 1000).toFixed(1)} s |`);
    console.log(`| calls: baseline / poller | ${(WATCHES / meanCalls).toFixed(0)}x fewer |`);
    console.log(`| alerts raised (opened / closed for the wallets that traded) | ${alerts} |`);
    console.log(`| alerts-poller peak RSS: steady cycles (fresh process, after a first cycle that loads every state) / seeding cycle | ${steadyPeak.toFixed(0)} / ${seedPeak.toFixed(0)} MB |`);
  } finally {
    await stack?.stop();
    await db.end();
    await api.close();
    await database.drop();
    fs.rmSync(distDir, { recursive: true, force: true });
  }
}

void main();
