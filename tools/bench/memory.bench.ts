/**
 * Resident memory of every service: idle after start-up, and the peak while a mixed load runs against the
 * public tool API, MCP and the alerts API. Reads `process_resident_memory_bytes` from each app's /metrics.
 * Run: node -r ./tools/dev/register.cjs tools/bench/memory.bench.ts [seconds=20] (builds the apps into
 * dist/bench-<pid> first; fresh database and Redis prefix).
 */
import { STACK_APPS, startTestStack } from '@paper/dev-stack';
import { buildBenchDist, runBench } from './run-bench';
import { residentMemoryMb } from './app-metrics';

const LOAD_SECONDS = Number(process.argv[2] ?? 20);

async function load(stack: { baseUrl: string; alertsUrl: string }, until: number): Promise<number> {
  const mcpBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_markets', arguments: {} },
  });
  const calls = [
    () => fetch(`${stack.baseUrl}/api/v1/tools/get_markets`),
    () => fetch(`${stack.baseUrl}/api/v1/tools/get_leaderboard?window=all&sortKey=totalVolume`),
    () =>
      fetch(`${stack.baseUrl}/api/v1/tools/calculate_position`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ market: 'BTC', side: 'long', marginUsd: 100, leverage: 100, exitPrice: 101000 }),
      }),
    () =>
      fetch(`${stack.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: mcpBody,
      }),
    () => fetch(`${stack.alertsUrl}/api/status`),
  ];
  let count = 0;
  const worker = async (offset: number) => {
    for (let i = offset; Date.now() < until; i += 1) {
      const res = await calls[i % calls.length]!();
      await res.arrayBuffer();
      count += 1;
    }
  };
  await Promise.all(Array.from({ length: 16 }, (_, i) => worker(i)));
  return count;
}

async function main(): Promise<void> {
  buildBenchDist();
  const stack = await startTestStack();
  try {
    await new Promise((r) => setTimeout(r, 5000));
    const idle: Record<string, number> = {};
    for (const app of STACK_APPS) idle[app.name] = await residentMemoryMb(stack.appUrls[app.name]!);
    const peak: Record<string, number> = { ...idle };
    const until = Date.now() + LOAD_SECONDS * 1000;
    const sampler = (async () => {
      while (Date.now() < until) {
        for (const app of STACK_APPS)
          peak[app.name] = Math.max(peak[app.name]!, await residentMemoryMb(stack.appUrls[app.name]!));
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const requests = await load(stack, until);
    await sampler;
    console.log(`| service | idle RSS (MB) | peak RSS under load (MB) |\n| --- | ---: | ---: |`);
    for (const app of STACK_APPS)
      console.log(`| ${app.name} | ${idle[app.name]!.toFixed(0)} | ${peak[app.name]!.toFixed(0)} |`);
    console.log(`\n${requests} requests in ${LOAD_SECONDS} s of mixed load (16 concurrent clients).`);
  } finally {
    await stack.stop();
  }
}

runBench(main);
