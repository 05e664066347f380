/**
 * MCP tools/call and tools/list, as MCP 2025-11-25 and as 2026-07-28 send them, against the REST call of
 * the same tool (and the REST tool listing), measured in one run on the same stack (ratios MCP / REST of throughput and of server CPU per call),
 * plus peak RSS of mcp-server and tools-gateway, an in-process measure of what the shared JSON-schema
 * validator and the pool of protocol servers save, and of what the MCP SDK's own HTTP entry would cost.
 * Run: node -r ./tools/dev/register.cjs tools/bench/mcp-server.bench.ts [seconds per round, default 5]
 * (builds the apps into dist/bench-<pid> first; the stack uses a fresh database and Redis prefix).
 * With CPU_PROF_DIR=<dir>, every app of the stack writes a V8 CPU profile there when it stops
 * (`node --cpu-prof`; open it in Chrome DevTools, Performance tab).
 */
import type { Transport } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import os from 'node:os';
import { startTestStack } from '@paper/dev-stack';
import { RequestServer, detachServer } from '@paper/nest-infra';
import { buildBenchDist, pinToCpus, runBench } from './run-bench';
import { metricValue, residentMemoryMb } from './app-metrics';
import { mcpEntryCost } from './mcp-entry-cost';

const ROUND_SECONDS = Number(process.argv[2] ?? 5);
const ROUNDS = 5;
const CONCURRENCY = 16;
const ACCEPT = 'application/json, text/event-stream';

interface Case {
  label: string;
  rest: (urls: Urls) => () => Promise<Response>;
  mcp: (urls: Urls) => () => Promise<Response>;
}

interface Urls {
  rest: string;
  mcp: string;
}

const CALC = { market: 'BTC', side: 'long', marginUsd: 100, leverage: 100, exitPrice: 101000 };

const restPost = (url: string, args: object) => () =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) });
const mcpPost = (url: string, message: object) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, ...message });
  return () => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body });
};
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};
/** The same request as MCP 2026-07-28 sends it: `_meta` in the params and the mirrored headers. */
const modernPost = (url: string, method: string, params: Record<string, unknown> = {}) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: MODERN_META } });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: ACCEPT,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  };
  if (typeof params['name'] === 'string') headers['mcp-name'] = params['name'];
  return () => fetch(url, { method: 'POST', headers, body });
};

const CASES: Case[] = [
  {
    label: 'calculate_position',
    rest: (u) => restPost(`${u.rest}/api/v1/tools/calculate_position`, CALC),
    mcp: (u) =>
      mcpPost(`${u.mcp}/mcp`, { method: 'tools/call', params: { name: 'calculate_position', arguments: CALC } }),
  },
  {
    label: 'get_markets',
    rest: (u) => restPost(`${u.rest}/api/v1/tools/get_markets`, {}),
    mcp: (u) => mcpPost(`${u.mcp}/mcp`, { method: 'tools/call', params: { name: 'get_markets', arguments: {} } }),
  },
  {
    label: 'get_trading_permissions (uncached)',
    rest: (u) => restPost(`${u.rest}/api/v1/tools/get_trading_permissions`, {}),
    mcp: (u) =>
      mcpPost(`${u.mcp}/mcp`, { method: 'tools/call', params: { name: 'get_trading_permissions', arguments: {} } }),
  },
  {
    label: 'tool listing (GET /api/v1/tools vs tools/list)',
    rest: (u) => () => fetch(`${u.rest}/api/v1/tools`),
    mcp: (u) => mcpPost(`${u.mcp}/mcp`, { method: 'tools/list' }),
  },
  {
    label: 'calculate_position, MCP 2026-07-28',
    rest: (u) => restPost(`${u.rest}/api/v1/tools/calculate_position`, CALC),
    mcp: (u) => modernPost(`${u.mcp}/mcp`, 'tools/call', { name: 'calculate_position', arguments: CALC }),
  },
  {
    label: 'get_markets, MCP 2026-07-28',
    rest: (u) => restPost(`${u.rest}/api/v1/tools/get_markets`, {}),
    mcp: (u) => modernPost(`${u.mcp}/mcp`, 'tools/call', { name: 'get_markets', arguments: {} }),
  },
  {
    label: 'get_trading_permissions (uncached), MCP 2026-07-28',
    rest: (u) => restPost(`${u.rest}/api/v1/tools/get_trading_permissions`, {}),
    mcp: (u) => modernPost(`${u.mcp}/mcp`, 'tools/call', { name: 'get_trading_permissions', arguments: {} }),
  },
  {
    label: 'tool listing, MCP 2026-07-28',
    rest: (u) => () => fetch(`${u.rest}/api/v1/tools`),
    mcp: (u) => modernPost(`${u.mcp}/mcp`, 'tools/list'),
  },
];

/** Calls per second with CONCURRENCY callers for `seconds`; every answer must be a 200 of a successful result. */
async function throughput(call: () => Promise<Response>, seconds: number): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let count = 0;
  const worker = async () => {
    while (Date.now() < until) {
      const res = await call();
      const text = await res.text();
      if (res.status !== 200 || text.includes('"isError":true') || text.includes('"ok":false'))
        throw new Error(`failed call: ${res.status} ${text.slice(0, 300)}`);
      count += 1;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return count / ((Date.now() - started) / 1000);
}

interface Round {
  perSecond: number;
  /** CPU time the serving app spent per call (user + system), microseconds. */
  cpuMicros: number;
}

/** One round against one app: calls per second, and the app's own CPU time per call (robust to a busy load generator). */
async function round(app: string, call: () => Promise<Response>, seconds: number): Promise<Round> {
  const cpuBefore = await metricValue(app, 'process_cpu_seconds_total');
  const started = Date.now();
  const perSecond = await throughput(call, seconds);
  const calls = perSecond * ((Date.now() - started) / 1000);
  const cpu = (await metricValue(app, 'process_cpu_seconds_total')) - cpuBefore;
  return { perSecond, cpuMicros: (cpu * 1e6) / calls };
}

/** A transport that goes nowhere: what readying a server for a request costs, without the request. */
class IdleTransport implements Transport {
  onclose?: () => void;
  async start(): Promise<void> {}
  async send(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
}

/**
 * Readying the protocol server of one request, in this process: building one per request with a fresh
 * JSON-schema validator (the SDK default), building one with the shared validator, and taking a pooled
 * one (connect, then detach once answered), as mcp-server does.
 */
async function serverReadying(): Promise<{ fresh: number; shared: number; pooled: number }> {
  const shared = new AjvJsonSchemaValidator();
  const info = { name: 'bench', version: '1' };
  const capabilities = { tools: {}, resources: {} };
  const measure = async (ready: () => Promise<void>) => {
    for (let i = 0; i < 200; i += 1) await ready();
    const started = process.hrtime.bigint();
    let n = 0;
    while (process.hrtime.bigint() - started < 2_000_000_000n) {
      await ready();
      n += 1;
    }
    return n / 2;
  };
  const pooled = new RequestServer(info, { capabilities, jsonSchemaValidator: shared });
  return {
    fresh: await measure(() => new RequestServer(info, { capabilities }).connect(new IdleTransport())),
    shared: await measure(() =>
      new RequestServer(info, { capabilities, jsonSchemaValidator: shared }).connect(new IdleTransport()),
    ),
    pooled: await measure(async () => {
      await pooled.connect(new IdleTransport());
      detachServer(pooled);
    }),
  };
}

/** NODE_OPTIONS that make the apps write CPU profiles into CPU_PROF_DIR, when it is set. */
function profileEnv(): Record<string, string> {
  const dir = process.env['CPU_PROF_DIR'];
  return dir ? { NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --cpu-prof --cpu-prof-dir=${dir}`.trim() } : {};
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  buildBenchDist();
  const stack = await startTestStack({
    apps: ['venue-sim', 'trading-executor', 'tools-gateway', 'mcp-server'],
    env: {
      RATE_LIMIT_PUBLIC_PER_SECOND: '1000000',
      RATE_LIMIT_PUBLIC_BURST: '1000000',
      LOG_LEVEL: 'warn',
      ...profileEnv(),
    },
  });
  try {
    const urls = { rest: stack.appUrls['tools-gateway']!, mcp: stack.appUrls['mcp-server']! };
    const ready = Date.now() + 30000;
    while (((await (await fetch(`${urls.rest}/api/v1/tools/get_markets`)).json()) as { ok: boolean }).ok !== true) {
      if (Date.now() > ready) throw new Error('no live prices after 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    // The two compared servers share one core and the load generator and the other apps keep the
    // other, so neither server profits from a quieter core (as in tools-gateway.bench.ts).
    const serverPids = [stack.pid('tools-gateway')!, stack.pid('mcp-server')!];
    const otherPids = [process.pid, stack.pid('venue-sim')!, stack.pid('trading-executor')!];
    const pinned = os.cpus().length >= 2 && pinToCpus(serverPids, '1') && pinToCpus(otherPids, '0');
    const peak = { mcp: await residentMemoryMb(urls.mcp), rest: await residentMemoryMb(urls.rest) };
    let running = true;
    const sampler = (async () => {
      while (running) {
        peak.mcp = Math.max(peak.mcp, await residentMemoryMb(urls.mcp));
        peak.rest = Math.max(peak.rest, await residentMemoryMb(urls.rest));
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const rows: string[] = [];
    for (const c of CASES) {
      const rest = c.rest(urls);
      const mcp = c.mcp(urls);
      await throughput(rest, 1);
      await throughput(mcp, 1);
      const restRounds: Round[] = [];
      const mcpRounds: Round[] = [];
      // Alternate the transports so both see the same background load on the shared machine.
      for (let i = 0; i < ROUNDS; i += 1) {
        restRounds.push(await round(urls.rest, rest, ROUND_SECONDS));
        mcpRounds.push(await round(urls.mcp, mcp, ROUND_SECONDS));
      }
      const r = median(restRounds.map((x) => x.perSecond));
      const m = median(mcpRounds.map((x) => x.perSecond));
      const rc = median(restRounds.map((x) => x.cpuMicros));
      const mc = median(mcpRounds.map((x) => x.cpuMicros));
      // Ratios are taken round by round (each MCP round against the REST round just before it), so a
      // slow phase of the shared machine weighs on both sides of the same ratio; the median is kept.
      const rate = median(mcpRounds.map((x, i) => x.perSecond / restRounds[i]!.perSecond));
      const cpu = median(mcpRounds.map((x, i) => x.cpuMicros / restRounds[i]!.cpuMicros));
      rows.push(
        `| ${c.label} | ${r.toFixed(0)} | ${m.toFixed(0)} | ${rate.toFixed(2)} | ${rc.toFixed(0)} | ${mc.toFixed(0)} | ${cpu.toFixed(2)} |`,
      );
      console.error(
        `${c.label}: REST ${restRounds.map((v) => v.perSecond.toFixed(0)).join('/')} MCP ${mcpRounds.map((v) => v.perSecond.toFixed(0)).join('/')}; ` +
          `CPU µs REST ${restRounds.map((v) => v.cpuMicros.toFixed(0)).join('/')} MCP ${mcpRounds.map((v) => v.cpuMicros.toFixed(0)).join('/')}`,
      );
    }
    running = false;
    await sampler;
    const readying = await serverReadying();
    const entries = await mcpEntryCost();
    console.log(
      `| call | REST calls/s | MCP calls/s | MCP / REST | REST CPU µs/call | MCP CPU µs/call | MCP / REST CPU |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n${rows.join('\n')}`,
    );
    console.log(
      `\nMedians of ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s (ratios: median of the per-round ratios), ${CONCURRENCY} concurrent callers, direct to each app` +
        (pinned
          ? '; tools-gateway and mcp-server pinned to one CPU, the load generator and the other apps to the other.'
          : '.'),
    );
    console.log(
      `Peak RSS (sampled every 250 ms): mcp-server ${peak.mcp.toFixed(0)} MB, tools-gateway ${peak.rest.toFixed(0)} MB.`,
    );
    console.log(
      `Readying the MCP protocol server of a request: ${readying.fresh.toFixed(0)}/s building one with a fresh validator, ` +
        `${readying.shared.toFixed(0)}/s with the shared one, ${readying.pooled.toFixed(0)}/s reusing a pooled one.`,
    );
    console.log(
      `In process, CPU µs per request at the HTTP entry (McpEndpoint vs the SDK's createMcpHandler): ` +
        entries.map((e) => `${e.label} ${e.endpoint.toFixed(0)} vs ${e.sdk.toFixed(0)}`).join('; ') +
        '.',
    );
  } finally {
    await stack.stop();
  }
}

runBench(main);
