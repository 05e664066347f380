/**
 * trading-executor intent throughput: signed open and close intents executed per second by one executor
 * (concurrency 8, each intent one PostgreSQL transaction with the account row locked), against the
 * baseline of bare BullMQ no-op jobs (same Redis, same concurrency) measured in the same run.
 * Run: node -r ./tools/dev/register.cjs tools/bench/executor-intents.bench.ts [wallets, default 200] [opens per wallet, default 10]
 */
import { INTENTS_QUEUE, SESSION_KEYS_QUEUE, type SignedIntentPayload } from '@paper/contracts';
import { usdc } from '@paper/exchange';
import { approvalFromGuardrails, type IntentMessage, intentId, signApproval, signIntent } from '@paper/exchange-signing';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Client } from 'pg';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { metricValue } from './app-metrics';
import { REDIS_URL, startExecutorBench } from './executor-bench-support';
import { runBench } from './run-bench';

const WALLETS = Number(process.argv[2] ?? 200);
const OPENS = Number(process.argv[3] ?? 10);
const CONCURRENCY = 8;
const GUARDRAILS = { maxMarginPerTradeUsd: null, maxLeverage: null, maxDailyNotionalUsd: null, maxOpenPositions: null, allowedMarkets: null, requireConfirmation: false };
const connectionOf = () => {
  const u = new URL(REDIS_URL);
  return { host: u.hostname, port: Number(u.port || 6379) };
};

async function sign(intent: IntentMessage, key: Hex, sessionKey: string): Promise<SignedIntentPayload> {
  const message = Object.fromEntries(Object.entries(intent.message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : Array.isArray(v) ? v.map(String) : v]));
  return { kind: intent.kind, message, sessionKey, signature: await signIntent(intent, key), intentId: intentId(intent) } as SignedIntentPayload;
}

/** Enqueues the payloads and waits until every job finished; returns jobs per second. */
async function run(queue: Queue, events: QueueEvents, payloads: readonly SignedIntentPayload[], sample: () => Promise<unknown>): Promise<number> {
  let done = 0;
  const finished = new Promise<void>((resolve) => {
    const onDone = () => {
      done += 1;
      if (done === payloads.length) resolve();
    };
    events.on('completed', onDone);
    events.on('failed', onDone);
  });
  const sampler = setInterval(() => void sample().catch(() => undefined), 250);
  const started = performance.now();
  await queue.addBulk(payloads.map((p) => ({ name: 'execute-intent', data: p, opts: { jobId: p.intentId, removeOnComplete: true } })));
  await finished;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  events.removeAllListeners('completed');
  events.removeAllListeners('failed');
  return payloads.length / seconds;
}

async function baseline(prefix: string, jobs: number): Promise<number> {
  const name = 'bench-noop';
  const queue = new Queue(name, { connection: connectionOf(), prefix });
  const worker = new Worker(name, async () => ({ ok: true }), { connection: connectionOf(), prefix, concurrency: CONCURRENCY });
  let done = 0;
  const finished = new Promise<void>((resolve) => worker.on('completed', () => ++done === jobs && resolve()));
  const started = performance.now();
  await queue.addBulk(Array.from({ length: jobs }, (_, i) => ({ name: 'noop', data: { i }, opts: { jobId: `noop-${i}`, removeOnComplete: true } })));
  await finished;
  const rate = jobs / ((performance.now() - started) / 1000);
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return rate;
}

async function main(): Promise<void> {
  const bench = await startExecutorBench({ INTENT_CONCURRENCY: String(CONCURRENCY) });
  const prefix = `${bench.redisPrefix}:bull`;
  const intents = new Queue(INTENTS_QUEUE.queue, { connection: connectionOf(), prefix });
  const events = new QueueEvents(INTENTS_QUEUE.queue, { connection: connectionOf(), prefix });
  const db = new Client({ connectionString: bench.database.url });
  await db.connect();
  try {
    await events.waitUntilReady();
    const keepFresh = setInterval(() => void bench.tick('BTC', 1_000_000n).then(() => bench.tick('ETH', 350_000n)), 1000);
    await bench.tick('BTC', 1_000_000n);
    await bench.tick('ETH', 350_000n);

    console.log(`registering and funding ${WALLETS} wallets ...`);
    const traders = await Promise.all(
      Array.from({ length: WALLETS }, async () => {
        const owner = generatePrivateKey();
        const session = generatePrivateKey();
        const wallet = privateKeyToAccount(owner).address.toLowerCase() as Hex;
        const sessionKey = privateKeyToAccount(session).address.toLowerCase();
        const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 86_400);
        return { wallet, session, sessionKey, expiresAt, approvalSignature: await signApproval(approvalFromGuardrails(wallet, sessionKey, GUARDRAILS, expiresAt), owner) };
      }),
    );
    const keys = new Queue(SESSION_KEYS_QUEUE.queue, { connection: connectionOf(), prefix });
    await keys.addBulk(traders.map((t) => ({ name: 'register-session-key', data: { wallet: t.wallet, sessionKey: t.sessionKey, guardrails: GUARDRAILS, expiresAt: t.expiresAt.toString(), approvalSignature: t.approvalSignature, label: 'bench' }, opts: { jobId: `sk-${t.sessionKey}` } })));
    for (;;) {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM exchange.session_keys`);
      if (rows[0].n === WALLETS) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await keys.close();
    for (const t of traders) {
      await fetch(`${bench.executorUrl}/dev/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wallet: t.wallet, usdc: '100000' }) });
      await fetch(`${bench.executorUrl}/dev/deposit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wallet: t.wallet, usdc: '100000', sweep: true }) });
    }

    let nonce = 1n;
    const expiresAt = () => BigInt(Math.floor(Date.now() / 1000) + 3000);
    console.log(`signing ${WALLETS * OPENS} open intents ...`);
    const opens: SignedIntentPayload[] = [];
    for (let round = 0; round < OPENS; round += 1) {
      for (const t of traders) {
        opens.push(await sign({ kind: 'open', message: { wallet: t.wallet, market: round % 2 ? 'ETH' : 'BTC', side: round % 3 ? 'long' : 'short', marginMicro: usdc(100), leverage: 100, nonce: nonce++, expiresAt: expiresAt() } }, t.session, t.sessionKey));
      }
    }
    const noopRate = await baseline(prefix, opens.length);
    const cpu = () => metricValue(bench.executorUrl, 'process_cpu_seconds_total');
    const cpu0 = await cpu();
    const openRate = await run(intents, events, opens, bench.sampleRss);
    const cpu1 = await cpu();
    const { rows: opened } = await db.query(`SELECT id, wallet FROM exchange.positions ORDER BY id`);
    const byWallet = new Map<string, string[]>();
    for (const r of opened) byWallet.set(r.wallet, [...(byWallet.get(r.wallet) ?? []), r.id]);
    const closes: SignedIntentPayload[] = [];
    for (const t of traders) {
      for (const id of byWallet.get(t.wallet) ?? []) {
        closes.push(await sign({ kind: 'close', message: { wallet: t.wallet, positionIds: [BigInt(id)], nonce: nonce++, expiresAt: expiresAt() } }, t.session, t.sessionKey));
      }
    }
    const cpu2 = await cpu();
    const closeRate = await run(intents, events, closes, bench.sampleRss);
    const cpu3 = await cpu();
    clearInterval(keepFresh);
    const { rows: statuses } = await db.query(`SELECT kind, status, count(*)::int AS n FROM exchange.intents GROUP BY 1, 2 ORDER BY 1, 2`);
    await bench.sampleRss();

    const perJob = (a: number, b: number, n: number) => (((b - a) * 1000) / n).toFixed(2);
    console.log('\n| run | jobs | jobs/s | vs bare BullMQ no-op | executor CPU ms/job |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    console.log(`| bare BullMQ no-op jobs (baseline, concurrency ${CONCURRENCY}) | ${opens.length} | ${noopRate.toFixed(0)} | 1.00 | - |`);
    console.log(`| open intents (verify, lock account, open, ledger) | ${opens.length} | ${openRate.toFixed(0)} | ${(openRate / noopRate).toFixed(2)} | ${perJob(cpu0, cpu1, opens.length)} |`);
    console.log(`| close intents (verify, lock, settle, LP, ledger) | ${closes.length} | ${closeRate.toFixed(0)} | ${(closeRate / noopRate).toFixed(2)} | ${perJob(cpu2, cpu3, closes.length)} |`);
    console.log(`\nintent outcomes: ${statuses.map((s) => `${s.kind}/${s.status} ${s.n}`).join(', ')}`);
    console.log(`trading-executor peak RSS: ${bench.peakRssMb().toFixed(0)} MB; bench process max RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  } finally {
    await events.close();
    await intents.close();
    await db.end();
    await bench.stop();
  }
}

runBench(main);
