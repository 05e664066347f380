/**
 * Event streams: how long from an event's commit to its arrival at SSE clients of the built tools-gateway
 * (`GET /api/v1/events`), with one client and with many concurrent clients on one gateway, against a
 * baseline measured in the same run (the same commits to a bare PostgreSQL LISTEN connection in this
 * process), plus the gateway's peak RSS.
 * Run: node -r ./tools/dev/register.cjs tools/bench/events-stream.bench.ts [clients, default 5000] [events, default 100] [ms between events, default 200]
 * (builds the apps into dist/bench-<pid> first; fresh database and Redis prefix).
 */
import http from 'node:http';
import { EXCHANGE_EVENTS_CHANNEL } from '@paper/contracts';
import { startTestStack, type TestStack } from '@paper/dev-stack';
import { Client } from 'pg';
import { residentMemoryMb } from './app-metrics';
import { buildBenchDist, runBench } from './run-bench';

const CLIENTS = Number(process.argv[2] ?? 5000);
const EVENTS = Number(process.argv[3] ?? 100);
const SPACING_MS = Number(process.argv[4] ?? 200);

/** Commits one public event (a trade) carrying its sequence number, as a writer does; resolves to the commit time. */
async function commitEvent(db: Client, seq: number): Promise<number> {
  await db.query('BEGIN');
  await db.query('SELECT pg_advisory_xact_lock(1163284052, 1)');
  const { rows } = await db.query(
    `INSERT INTO exchange.events (type, wallet, market, data) VALUES ('position.opened', '0x00000000000000000000000000000000000000be', 'BTC', jsonb_build_object('positionId', $1::text)) RETURNING id`,
    [String(seq)],
  );
  await db.query('SELECT pg_notify($1, $2)', [EXCHANGE_EVENTS_CHANNEL, String(rows[0].id)]);
  await db.query('COMMIT');
  return performance.now();
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Opens `n` raw SSE connections; each records when it sees each sequence number. */
async function openClients(url: string, n: number, onEvent: (seq: number, at: number) => void): Promise<http.ClientRequest[]> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  let opened = 0;
  await new Promise<void>((resolve, reject) => {
    for (let i = 0; i < n; i += 1) {
      const req = http.get(url, { agent }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        res.setEncoding('utf8');
        let carry = '';
        res.on('data', (chunk: string) => {
          const at = performance.now();
          carry += chunk;
          let start = carry.indexOf('"positionId":"');
          while (start >= 0) {
            const end = carry.indexOf('"', start + 14);
            if (end < 0) break;
            onEvent(Number(carry.slice(start + 14, end)), at);
            carry = carry.slice(end);
            start = carry.indexOf('"positionId":"');
          }
          if (carry.length > 4096) carry = carry.slice(-4096);
        });
        opened += 1;
        if (opened === n) resolve();
      });
      req.on('error', reject);
      requests.push(req);
    }
  });
  return requests;
}

async function measure(stack: TestStack, writer: Client, clients: number, events: number): Promise<{ latencies: number[]; delivered: number; peakMb: number }> {
  const committed = new Map<number, number>();
  const latencies: number[] = [];
  const base = 1_000_000 * clients;
  const requests = await openClients(`${stack.appUrls['tools-gateway']}/api/v1/events?types=position.opened`, clients, (seq, at) => {
    const t = committed.get(seq);
    if (t !== undefined) latencies.push(at - t);
  });
  let peakMb = await residentMemoryMb(stack.appUrls['tools-gateway']!);
  const sampler = setInterval(() => void residentMemoryMb(stack.appUrls['tools-gateway']!).then((mb) => (peakMb = Math.max(peakMb, mb))).catch(() => undefined), 250);
  for (let i = 0; i < events; i += 1) {
    // The commit time is known once COMMIT returns; the event may arrive before that is recorded, so it is
    // recorded as the time COMMIT was sent (the latency measured is never shorter than the true one).
    const sent = performance.now();
    committed.set(base + i, sent);
    await commitEvent(writer, base + i);
    await new Promise((r) => setTimeout(r, SPACING_MS));
  }
  const deadline = Date.now() + 30_000;
  while (latencies.length < clients * events && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  clearInterval(sampler);
  for (const r of requests) r.destroy();
  return { latencies, delivered: latencies.length, peakMb };
}

async function baseline(url: string, writer: Client, events: number): Promise<number[]> {
  const listener = new Client({ connectionString: url });
  await listener.connect();
  await listener.query(`LISTEN ${EXCHANGE_EVENTS_CHANNEL}`);
  const latencies: number[] = [];
  let sent = 0;
  listener.on('notification', () => latencies.push(performance.now() - sent));
  for (let i = 0; i < events; i += 1) {
    sent = performance.now();
    await commitEvent(writer, -1 - i);
    await new Promise((r) => setTimeout(r, SPACING_MS));
  }
  await listener.end();
  return latencies;
}

async function main(): Promise<void> {
  buildBenchDist();
  const stack = await startTestStack({ apps: ['tools-gateway'], env: { RATE_LIMIT_PUBLIC_PER_SECOND: '1000000', RATE_LIMIT_PUBLIC_BURST: '1000000', EVENT_STREAM_MAX_CLIENTS: String(CLIENTS + 10) } });
  const writer = new Client({ connectionString: stack.database.url });
  await writer.connect();
  try {
    const idleMb = await residentMemoryMb(stack.appUrls['tools-gateway']!);
    const bare = await baseline(stack.database.url, writer, EVENTS);
    const one = await measure(stack, writer, 1, EVENTS);
    const many = await measure(stack, writer, CLIENTS, EVENTS);
    const row = (label: string, l: number[], expected: number) =>
      `| ${label} | ${l.length} / ${expected} | ${percentile(l, 50).toFixed(1)} | ${percentile(l, 99).toFixed(1)} | ${(percentile(l, 99) / percentile(bare, 99)).toFixed(1)} |`;
    console.log('| clients | received / expected | p50 ms | p99 ms | p99 vs bare LISTEN p99 |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    console.log(row('bare PostgreSQL LISTEN (baseline)', bare, EVENTS));
    console.log(row('1 SSE client', one.latencies, EVENTS));
    console.log(row(`${CLIENTS} SSE clients`, many.latencies, CLIENTS * EVENTS));
    console.log(`\ntools-gateway RSS: idle ${idleMb.toFixed(0)} MB, peak with 1 client ${one.peakMb.toFixed(0)} MB, with ${CLIENTS} clients ${many.peakMb.toFixed(0)} MB`);
    console.log(`${EVENTS} events, one every ${SPACING_MS} ms; latency from COMMIT sent to the frame read by the client.`);
  } finally {
    await writer.end();
    await stack.stop();
  }
}

runBench(main);
