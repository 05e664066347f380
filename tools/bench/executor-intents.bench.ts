/**
 * trading-executor intent throughput: signed open and close intents accepted the way the tool API
 * accepts them (inbox rows in PostgreSQL, then one deduplicated `intents-due` wake-up job), executed in
 * batches, and counted when their results arrive on the executors' result messages, against the baseline
 * of bare BullMQ no-op jobs (same Redis, concurrency 8) measured in the same run; first with one executor,
 * then with two replicas on the same database and queue (one, two, two, one: the tables grow during the run).
 * Both sides are measured warm (a throwaway baseline run, a warm-up round on each executor).
 * BENCH_EXECUTOR_ENV (JSON) adds environment variables to the executors, e.g. '{"INTENT_BATCH_MAX":"64"}'.
 * Run: node -r ./tools/dev/register.cjs tools/bench/executor-intents.bench.ts [wallets, default 200] [opens per wallet, default 10]
 */
import { INTENTS_DUE_JOB_ID, INTENTS_QUEUE, type SignedIntentPayload } from '@paper/contracts';
import { usdc } from '@paper/exchange';
import { acceptIntents, readIntents } from '@paper/exchange-data';
import { IntentResultWaits } from '@paper/tools-runtime';
import { type IntentMessage, intentId, signIntent } from '@paper/exchange-signing';
import { Queue, Worker } from 'bullmq';
import { Client } from 'pg';
import { commandCpuSeconds, histogramTotals, metricValue } from './app-metrics';
import { type BenchWallet, fundWallets } from './executor-bench-wallets';
import { REDIS_URL, startExecutorBench } from './executor-bench-support';
import { runBench } from './run-bench';

const WALLETS = Number(process.argv[2] ?? 200);
const OPENS = Number(process.argv[3] ?? 10);
const BASELINE_CONCURRENCY = 8;
const connectionOf = () => {
  const u = new URL(REDIS_URL);
  return { host: u.hostname, port: Number(u.port || 6379) };
};

let nonce = 1n;
const expiresAt = () => BigInt(Math.floor(Date.now() / 1000) + 3000);

async function sign(intent: IntentMessage, w: BenchWallet): Promise<SignedIntentPayload> {
  const message = Object.fromEntries(
    Object.entries(intent.message).map(([k, v]) => [
      k,
      typeof v === 'bigint' ? v.toString() : Array.isArray(v) ? v.map(String) : v,
    ]),
  );
  return {
    kind: intent.kind,
    message,
    sessionKey: w.sessionKey,
    signature: await signIntent(intent, w.session),
    intentId: intentId(intent),
  } as SignedIntentPayload;
}

/**
 * Accepts the intents (inbox rows in one statement), wakes the executors with one `intents-due` job and
 * waits, as the tool API does, until every result has arrived on the result messages; returns intents per second.
 */
async function run(
  db: Client,
  queue: Queue,
  waits: IntentResultWaits,
  payloads: readonly SignedIntentPayload[],
  sample: () => Promise<unknown>,
): Promise<number> {
  const cpu0 = {
    pg: commandCpuSeconds('postgres'),
    redis: commandCpuSeconds('redis-server'),
    bench: process.cpuUsage(),
  };
  const sampler = setInterval(() => void sample().catch(() => undefined), 250);
  const started = performance.now();
  await acceptIntents(db, payloads);
  const wait = waits.expect(payloads.map((p) => p.intentId));
  await queue.add('intents-due', {}, { jobId: INTENTS_DUE_JOB_ID, ...INTENTS_QUEUE.options['intents-due'] });
  const results = await wait.results(Date.now() + 120_000);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (results.size !== payloads.length)
    throw new Error(`${payloads.length - results.size} intents without a result after 120 s`);
  if (process.env['BENCH_DEBUG']) {
    const perIntent = (s: number) => ((s * 1000) / payloads.length).toFixed(2);
    const bench = process.cpuUsage(cpu0.bench);
    console.log(
      `  CPU ms/intent: postgres ${perIntent(commandCpuSeconds('postgres') - cpu0.pg)}, redis ${perIntent(commandCpuSeconds('redis-server') - cpu0.redis)}, bench ${perIntent((bench.user + bench.system) / 1e6)}`,
    );
  }
  return payloads.length / seconds;
}

async function baseline(prefix: string, jobs: number): Promise<number> {
  const name = 'bench-noop';
  const queue = new Queue(name, { connection: connectionOf(), prefix });
  const worker = new Worker(name, async () => ({ ok: true }), {
    connection: connectionOf(),
    prefix,
    concurrency: BASELINE_CONCURRENCY,
  });
  let done = 0;
  const finished = new Promise<void>((resolve) => worker.on('completed', () => ++done === jobs && resolve()));
  const started = performance.now();
  await queue.addBulk(
    Array.from({ length: jobs }, (_, i) => ({
      name: 'noop',
      data: { i },
      opts: { jobId: `noop-${i}`, removeOnComplete: true },
    })),
  );
  await finished;
  const rate = jobs / ((performance.now() - started) / 1000);
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return rate;
}

interface Phase {
  label: string;
  opens: number;
  closes: number;
  openCpuMs: number;
  closeCpuMs: number;
  batchOpens: number;
  batchCloses: number;
}

async function main(): Promise<void> {
  const bench = await startExecutorBench(
    JSON.parse(process.env['BENCH_EXECUTOR_ENV'] ?? '{}') as Record<string, string>,
  );
  const prefix = `${bench.redisPrefix}:bull`;
  const intents = new Queue(INTENTS_QUEUE.queue, { connection: connectionOf(), prefix });
  const waits = new IntentResultWaits({ REDIS_URL, REDIS_PREFIX: bench.redisPrefix }, async (ids) => {
    const rows = await readIntents(db, ids);
    return new Map(rows.filter((r) => r.status !== 'queued' && r.result).map((r) => [r.id, r.result!]));
  });
  const db = new Client({ connectionString: bench.database.url });
  await db.connect();
  try {
    await waits.listen(10_000);
    const keepFresh = setInterval(
      () => void bench.tick('BTC', 1_000_000n).then(() => bench.tick('ETH', 350_000n)),
      1000,
    );
    await bench.tick('BTC', 1_000_000n);
    await bench.tick('ETH', 350_000n);
    console.log(`registering and funding ${WALLETS} wallets ...`);
    const wallets = await fundWallets(bench, prefix, WALLETS, db);

    const cpu = async () =>
      (await Promise.all(bench.executorUrls.map((u) => metricValue(u, 'process_cpu_seconds_total')))).reduce(
        (a, b) => a + b,
        0,
      );
    const batches = async () => {
      const totals = await Promise.all(
        bench.executorUrls.map((u) => histogramTotals(u, 'exchange_intent_batch_size', 'app="trading-executor"')),
      );
      return totals.reduce((a, t) => ({ sum: a.sum + t.sum, count: a.count + t.count }), { sum: 0, count: 0 });
    };
    const phase = async (label: string, rounds = OPENS): Promise<Phase> => {
      console.log(`${label}: signing ${WALLETS * rounds} open intents ...`);
      const opens: SignedIntentPayload[] = [];
      for (let round = 0; round < rounds; round += 1) {
        for (const w of wallets) {
          opens.push(
            await sign(
              {
                kind: 'open',
                message: {
                  wallet: w.wallet,
                  market: round % 2 ? 'ETH' : 'BTC',
                  side: round % 3 ? 'long' : 'short',
                  marginMicro: usdc(100),
                  leverage: 100,
                  nonce: nonce++,
                  expiresAt: expiresAt(),
                },
              },
              w,
            ),
          );
        }
      }
      const [c0, b0] = [await cpu(), await batches()];
      const openRate = await run(db, intents, waits, opens, bench.sampleRss);
      const [c1, b1] = [await cpu(), await batches()];
      const { rows: opened } = await db.query<{ id: string; wallet: string }>(
        `SELECT id, wallet FROM exchange.positions WHERE status = 'open' ORDER BY id`,
      );
      const closes: SignedIntentPayload[] = [];
      const byWallet = new Map<string, BenchWallet>(wallets.map((w) => [w.wallet, w]));
      for (const r of opened) {
        const w = byWallet.get(r.wallet)!;
        closes.push(
          await sign(
            {
              kind: 'close',
              message: { wallet: w.wallet, positionIds: [BigInt(r.id)], nonce: nonce++, expiresAt: expiresAt() },
            },
            w,
          ),
        );
      }
      const [c2, b2] = [await cpu(), await batches()];
      const closeRate = await run(db, intents, waits, closes, bench.sampleRss);
      const [c3, b3] = [await cpu(), await batches()];
      const perJob = (a: number, b: number, n: number) => ((b - a) * 1000) / n;
      const avgBatch = (a: { sum: number; count: number }, b: { sum: number; count: number }) =>
        (b.sum - a.sum) / Math.max(1, b.count - a.count);
      return {
        label,
        opens: openRate,
        closes: closeRate,
        openCpuMs: perJob(c0, c1, opens.length),
        closeCpuMs: perJob(c2, c3, closes.length),
        batchOpens: avgBatch(b0, b1),
        batchCloses: avgBatch(b2, b3),
      };
    };

    // Every side runs warm, as a server does: a throwaway baseline, and one round of opens and closes on
    // each new executor before the measured phases.
    await baseline(prefix, WALLETS * OPENS);
    const noopRate = await baseline(prefix, WALLETS * OPENS);
    await phase('warm-up', 1);
    // One and two replicas alternate (one, two, two, one), so the growth of the tables during the run
    // weighs on both sides alike; the second replica is warmed up as long as the first was.
    const oneFirst = await phase('one executor (1st run)');
    await bench.addReplica();
    await phase('warm-up of the second replica', OPENS);
    const twoFirst = await phase('two executor replicas (1st run)');
    const twoSecond = await phase('two executor replicas (2nd run)');
    await bench.removeReplica();
    const oneSecond = await phase('one executor (2nd run)');
    const runs = [oneFirst, twoFirst, twoSecond, oneSecond];
    const noopAfter = await baseline(prefix, WALLETS * OPENS);
    clearInterval(keepFresh);
    const { rows: statuses } = await db.query(
      `SELECT kind, status, count(*)::int AS n FROM exchange.intents GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    await bench.sampleRss();

    const noop = (noopRate + noopAfter) / 2;
    console.log('\n| run | intents/s | vs bare BullMQ no-op | executor CPU ms/intent | mean batch |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    console.log(
      `| bare BullMQ no-op jobs (baseline, concurrency ${BASELINE_CONCURRENCY}; before / after: ${noopRate.toFixed(0)} / ${noopAfter.toFixed(0)}) | ${noop.toFixed(0)} | 1.00 | - | - |`,
    );
    for (const p of runs) {
      console.log(
        `| ${p.label}: ${WALLETS * OPENS} opens | ${p.opens.toFixed(0)} | ${(p.opens / noop).toFixed(2)} | ${p.openCpuMs.toFixed(2)} | ${p.batchOpens.toFixed(1)} |`,
      );
      console.log(
        `| ${p.label}: closes | ${p.closes.toFixed(0)} | ${(p.closes / noop).toFixed(2)} | ${p.closeCpuMs.toFixed(2)} | ${p.batchCloses.toFixed(1)} |`,
      );
    }
    const ratio = (key: 'opens' | 'closes') => (twoFirst[key] + twoSecond[key]) / (oneFirst[key] + oneSecond[key]);
    console.log(
      `\ntwo replicas / one (both runs of each): opens ${ratio('opens').toFixed(2)}, closes ${ratio('closes').toFixed(2)}`,
    );
    console.log(`intent outcomes: ${statuses.map((s) => `${s.kind}/${s.status} ${s.n}`).join(', ')}`);
    console.log(
      `trading-executor peak RSS: ${bench.peakRssMb().toFixed(0)} MB; bench process max RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
  } finally {
    await waits.close();
    await intents.close();
    await db.end();
    await bench.stop();
  }
}

runBench(main);
