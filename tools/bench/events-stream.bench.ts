/**
 * Event streams: how long from an event's commit to its arrival at SSE clients of the built tools-gateway
 * (`GET /api/v1/events`), with one client and with many concurrent clients on one gateway, against a
 * baseline measured in the same run (the same commits to a bare PostgreSQL LISTEN connection in this
 * process), plus the gateway's peak RSS.
 * Memory is read from /proc (scraping /metrics would make the gateway count its thousands of sockets).
 * Run: node -r ./tools/dev/register.cjs tools/bench/events-stream.bench.ts [clients, default 5000] [events, default 100] [ms between events, default 200]
 * (builds the apps into dist/bench-<pid> first; fresh database and Redis prefix).
 */
import net from 'node:net';
import { EXCHANGE_EVENTS_CHANNEL } from '@paper/contracts';
import { startTestStack, type TestStack } from '@paper/dev-stack';
import { Client } from 'pg';
import { processMemoryMb } from './app-metrics';
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

const MARKER = Buffer.from('"positionId":"');
const QUOTE = 0x22;

/**
 * Opens `n` SSE connections as plain TCP clients (a request line, then bytes read as they come: the
 * client side costs as little as possible, so the latency measured is the gateway's); each records when
 * it reads each sequence number.
 */
async function openClients(url: string, n: number, onEvent: (seq: number, at: number) => void): Promise<net.Socket[]> {
  const target = new URL(url);
  const request = `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\n\r\n`;
  const sockets: net.Socket[] = [];
  let opened = 0;
  await new Promise<void>((resolve, reject) => {
    for (let i = 0; i < n; i += 1) {
      const socket = net.connect(Number(target.port), target.hostname, () => socket.write(request));
      let headed = false;
      let carry: Buffer = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        const at = performance.now();
        if (!headed) {
          if (!chunk.subarray(0, 12).toString('latin1').startsWith('HTTP/1.1 200'))
            return reject(new Error(`stream answered ${chunk.subarray(0, 40).toString('latin1')}`));
          headed = true;
          opened += 1;
          if (opened === n) resolve();
        }
        let data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
        let start = data.indexOf(MARKER);
        while (start >= 0) {
          const end = data.indexOf(QUOTE, start + MARKER.length);
          if (end < 0) break;
          onEvent(Number(data.subarray(start + MARKER.length, end).toString('latin1')), at);
          data = data.subarray(end);
          start = data.indexOf(MARKER);
        }
        carry = Buffer.from(data.subarray(Math.max(0, data.length - 64)));
      });
      socket.on('error', reject);
      sockets.push(socket);
    }
  });
  return sockets;
}

async function measure(
  stack: TestStack,
  writer: Client,
  clients: number,
  events: number,
): Promise<{ latencies: number[]; delivered: number; peakMb: number }> {
  const committed = new Map<number, number>();
  const latencies: number[] = [];
  const base = 1_000_000 * clients;
  const requests = await openClients(
    `${stack.appUrls['tools-gateway']}/api/v1/events?types=position.opened`,
    clients,
    (seq, at) => {
      const t = committed.get(seq);
      if (t !== undefined) latencies.push(at - t);
    },
  );
  const pid = stack.pid('tools-gateway')!;
  let peakMb = processMemoryMb(pid);
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, processMemoryMb(pid))), 250);
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
  const stack = await startTestStack({
    apps: ['tools-gateway'],
    env: {
      RATE_LIMIT_PUBLIC_PER_SECOND: '1000000',
      RATE_LIMIT_PUBLIC_BURST: '1000000',
      EVENT_STREAM_MAX_CLIENTS: String(CLIENTS + 10),
    },
  });
  const writer = new Client({ connectionString: stack.database.url });
  await writer.connect();
  try {
    const idleMb = processMemoryMb(stack.pid('tools-gateway')!);
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
    console.log(
      `\ntools-gateway RSS: idle ${idleMb.toFixed(0)} MB, peak with 1 client ${one.peakMb.toFixed(0)} MB, with ${CLIENTS} clients ${many.peakMb.toFixed(0)} MB`,
    );
    console.log(
      `${EVENTS} events, one every ${SPACING_MS} ms; latency from COMMIT sent to the frame read by the client.`,
    );
  } finally {
    await writer.end();
    await stack.stop();
  }
}

runBench(main);
