/**
 * tools-gateway throughput and latency against a bare NestJS endpoint measured in the same run, and the
 * preview_trade + open_position round trip with trading-executor filling the intents.
 * Run: node -r ./tools/dev/register.cjs tools/bench/tools-gateway.bench.ts [seconds per round, default 5]
 * (builds the apps into dist/bench-<pid>; the stack uses a fresh database and Redis prefix).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVICE_NODE_OPTIONS, WORKSPACE_ROOT, freePort, startTestStack, testRedisUrl } from '@paper/dev-stack';
import autocannon from 'autocannon';
import { connectBenchTrader, startBenchIssuer } from './bench-trader';
import { buildBenchDist, pinToCpus, runBench } from './run-bench';
import { histogramTotals, metricValue } from './app-metrics';

const ROUND_SECONDS = Number(process.argv[2] ?? 5);
const ROUNDS = 5;
const CONNECTIONS = 16;
const ROUND_TRIPS = 300;
const CALC_QUERY = 'market=BTC&side=long&marginUsd=100&leverage=100&exitPrice=101000';

interface Case {
  label: string;
  server: 'bare' | 'gateway';
  options: (urls: { bare: string; gateway: string }) => autocannon.Options;
  /** The bare case (same response bytes) this one is compared with. */
  baseline?: string;
}

const BARE_MARKETS = 'bare NestJS endpoint, get_markets bytes (baseline)';
const BARE_CALC = 'bare NestJS endpoint, calculate_position bytes (baseline)';

let varying = 0;
const CASES: Case[] = [
  { label: BARE_MARKETS, server: 'bare', options: (u) => ({ url: `${u.bare}/bare/markets` }) },
  {
    label: 'get_markets (cached)',
    server: 'gateway',
    baseline: BARE_MARKETS,
    options: (u) => ({ url: `${u.gateway}/api/v1/tools/get_markets` }),
  },
  { label: BARE_CALC, server: 'bare', options: (u) => ({ url: `${u.bare}/bare/calc` }) },
  {
    label: 'calculate_position (cached)',
    server: 'gateway',
    baseline: BARE_CALC,
    options: (u) => ({ url: `${u.gateway}/api/v1/tools/calculate_position?${CALC_QUERY}` }),
  },
  {
    label: 'calculate_position (uncached: new arguments each call)',
    server: 'gateway',
    baseline: BARE_CALC,
    options: (u) => ({
      url: u.gateway,
      requests: [
        {
          setupRequest: (req) => {
            varying += 1;
            return {
              ...req,
              path: `/api/v1/tools/calculate_position?market=ETH&side=short&leverage=50&marginUsd=${(100 + varying / 1e6).toFixed(6)}`,
            };
          },
        },
      ],
    }),
  },
];

interface Round {
  rps: number;
  p50: number;
  p99: number;
  cpuMicros: number;
}

async function round(server: string, options: autocannon.Options): Promise<Round> {
  const cpuBefore = await metricValue(server, 'process_cpu_seconds_total');
  const result = await autocannon({ connections: CONNECTIONS, duration: ROUND_SECONDS, ...options });
  const cpu = (await metricValue(server, 'process_cpu_seconds_total')) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${options.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicros: (cpu * 1e6) / result.requests.total,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function post(
  url: string,
  token: string,
  body: object,
): Promise<{ ok: boolean; data?: Record<string, unknown>; error?: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { ok: boolean; data?: Record<string, unknown> };
}

/** Resident memory of a process in MB (VmRSS of /proc/<pid>/status). */
/** Resident memory of a process in MB; 0 once it has exited (the stack stops while the sampler runs). */
function residentMb(pid: number): number {
  if (!fs.existsSync(`/proc/${pid}/status`)) return 0;
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/\d+/)?.[0] ?? NaN) / 1024;
}

async function startBare(bodiesFile: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...SERVICE_NODE_OPTIONS,
      '-r',
      path.join(WORKSPACE_ROOT, 'tools/dev/register.cjs'),
      path.join(__dirname, 'bare-nest.app.ts'),
    ],
    {
      cwd: WORKSPACE_ROOT,
      env: { ...process.env, PORT: String(port), BENCH_BODIES_FILE: bodiesFile, LOG_LEVEL: 'warn' },
      stdio: 'inherit',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30000;
  for (;;) {
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { url, child };
    if (Date.now() > deadline) throw new Error('bare app not ready');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(): Promise<void> {
  buildBenchDist();
  const issuer = await startBenchIssuer();
  const stack = await startTestStack({
    apps: ['venue-sim', 'trading-executor', 'tools-gateway'],
    env: {
      OAUTH_JWKS_URL: issuer.jwksUrl,
      RATE_LIMIT_PUBLIC_PER_SECOND: '1000000',
      RATE_LIMIT_PUBLIC_BURST: '1000000',
      RATE_LIMIT_ME_PER_SECOND: '1000000',
      RATE_LIMIT_ME_BURST: '1000000',
      LOG_LEVEL: 'warn',
    },
  });
  const bodyFile = path.join(os.tmpdir(), `bench-body-${process.pid}.json`);
  let bare: { url: string; child: ChildProcess } | undefined;
  try {
    const gateway = stack.appUrls['tools-gateway']!;
    const ready = Date.now() + 30000;
    let body = '';
    while (!(body = await (await fetch(`${gateway}/api/v1/tools/get_markets`)).text()).includes('"ok":true')) {
      if (Date.now() > ready) throw new Error('no live prices after 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    const calc = await (await fetch(`${gateway}/api/v1/tools/calculate_position?${CALC_QUERY}`)).text();
    fs.writeFileSync(bodyFile, JSON.stringify({ markets: body, calc }));
    bare = await startBare(bodyFile);
    const urls = { bare: bare.url, gateway };
    const pidOf = (app: string) => stack.pid(app)!;
    const appPids = [pidOf('venue-sim'), pidOf('trading-executor')];
    const gatewayPids = [pidOf('tools-gateway')];
    const pinned =
      os.cpus().length >= 2 &&
      pinToCpus([bare.child.pid!, ...gatewayPids], '1') &&
      pinToCpus([process.pid, ...appPids], '0');
    // Resident memory is read from /proc, so sampling it costs the measured services nothing.
    const watched: Record<string, number> = {
      'tools-gateway': pidOf('tools-gateway'),
      'trading-executor': pidOf('trading-executor'),
      'venue-sim': pidOf('venue-sim'),
      'bare baseline': bare.child.pid!,
    };
    const idle: Record<string, number> = {};
    for (const [name, pid] of Object.entries(watched)) idle[name] = residentMb(pid);
    const peak: Record<string, number> = { ...idle };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const [name, pid] of Object.entries(watched)) peak[name] = Math.max(peak[name] ?? 0, residentMb(pid));
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const rounds = new Map<string, Round[]>(CASES.map((c) => [c.label, []]));
    for (const c of CASES) await autocannon({ connections: CONNECTIONS, duration: 1, ...c.options(urls) });
    // Alternate the cases so all see the same background load on the shared machine.
    for (let i = 0; i < ROUNDS; i += 1) {
      for (const c of CASES)
        rounds.get(c.label)!.push(await round(c.server === 'bare' ? urls.bare : urls.gateway, c.options(urls)));
    }

    // The round trips compare with nothing: every process may use every CPU again.
    if (pinned) pinToCpus([bare.child.pid!, ...gatewayPids, process.pid, ...appPids], `0-${os.cpus().length - 1}`);
    const trader = await connectBenchTrader(stack, issuer, testRedisUrl(), 20_000);
    const trade = { market: 'ETH', side: 'long', marginUsd: 10, leverage: 1000 };
    const totals: number[] = [];
    const opens: number[] = [];
    let executorBefore = { sum: 0, count: 0 };
    for (let i = 0; i < ROUND_TRIPS + 20; i += 1) {
      const started = performance.now();
      const preview = await post(`${gateway}/api/v1/me/tools/preview_trade`, trader.token, trade);
      const opening = performance.now();
      const open = await post(`${gateway}/api/v1/me/tools/open_position`, trader.token, {
        ...trade,
        quoteId: preview.data?.['quoteId'],
      });
      const done = performance.now();
      if (open.data?.['status'] !== 'filled') throw new Error(`open not filled: ${JSON.stringify(open).slice(0, 300)}`);
      if (i === 19)
        executorBefore = await histogramTotals(
          stack.appUrls['trading-executor']!,
          'exchange_intent_duration_seconds',
          'kind="open"',
        );
      if (i >= 20) {
        totals.push(done - started);
        opens.push(done - opening);
      }
    }
    const executorAfter = await histogramTotals(
      stack.appUrls['trading-executor']!,
      'exchange_intent_duration_seconds',
      'kind="open"',
    );
    const executorMs =
      ((executorAfter.sum - executorBefore.sum) / Math.max(1, executorAfter.count - executorBefore.count)) * 1000;
    sampling = false;
    await sampler;

    // Each case is compared with the bare endpoint of the same round (measured seconds apart), so slow
    // phases of the shared machine cancel out; the table shows the median over the rounds.
    console.log(
      '| endpoint | requests/s | vs bare, same bytes (median of per-round ratios) | p50 ms | p99 ms | server CPU µs/request |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const c of CASES) {
      const r = rounds.get(c.label)!;
      const bareRounds = rounds.get(c.baseline ?? c.label)!;
      const rps = median(r.map((x) => x.rps));
      const ratio = median(r.map((x, i) => x.rps / bareRounds[i]!.rps));
      console.log(
        `| ${c.label} | ${rps.toFixed(0)} | ${ratio.toFixed(2)} | ${median(r.map((x) => x.p50)).toFixed(1)} | ${median(r.map((x) => x.p99)).toFixed(1)} | ${median(r.map((x) => x.cpuMicros)).toFixed(0)} |`,
      );
      console.error(
        `${c.label}: ${r.map((x) => `${x.rps.toFixed(0)} req/s (${x.cpuMicros.toFixed(0)} µs)`).join(' / ')}`,
      );
    }
    console.log(
      `\nMedian of ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s, ${CONNECTIONS} connections (autocannon), direct to each app` +
        (pinned
          ? '; the bare endpoint and tools-gateway pinned to one CPU, the load generator and the other apps to the other (the round trips below run unpinned).'
          : '.'),
    );
    const sortedTotals = [...totals].sort((a, b) => a - b);
    const sortedOpens = [...opens].sort((a, b) => a - b);
    console.log(`\n| preview + open + fill (${ROUND_TRIPS} sequential) | p50 ms | p95 ms | p99 ms | max ms |`);
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const [label, values] of [
      ['preview_trade + open_position (filled)', sortedTotals],
      ['open_position alone (sign, queue, fill)', sortedOpens],
    ] as const) {
      console.log(
        `| ${label} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 95).toFixed(1)} | ${percentile(values, 99).toFixed(1)} | ${values.at(-1)!.toFixed(1)} |`,
      );
    }
    console.log(
      `\nOf which trading-executor from accepting an open intent to storing its result (claim, verify, lock, open, ledger, commit): ${executorMs.toFixed(1)} ms on average.`,
    );
    console.log(
      `\nRSS idle -> peak (sampled every 250 ms from /proc): ${Object.entries(peak)
        .map(([n, mb]) => `${n} ${idle[n]!.toFixed(0)} -> ${mb.toFixed(0)} MB`)
        .join(', ')}.`,
    );
  } finally {
    bare?.child.kill('SIGTERM');
    await stack.stop();
    issuer.stop();
    fs.rmSync(bodyFile, { force: true });
  }
}

runBench(main);
