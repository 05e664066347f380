/**
 * alerts-dispatcher throughput: signed webhook deliveries per second from the built dispatcher app to a
 * local receiver that verifies every signature, against a baseline measured in the same run (the same
 * signed POSTs sent straight from this process, no queue or database), plus the dispatcher's peak RSS.
 * The deliveries are committed and the dispatcher woken once, as alerts-poller does.
 * Run: node -r ./tools/dev/register.cjs tools/bench/alerts-dispatcher.bench.ts [deliveries, default 3000] [concurrency, default 32]
 * (builds the apps into dist/bench-<pid> first; fresh database and Redis prefix).
 */
import { randomUUID } from 'node:crypto';
import { buildWebhookEvent, createSigningSecret, sendWebhook } from '@paper/alerts-delivery';
import { ALERTS_DELIVERY_QUEUE, DELIVERIES_DUE_JOB_ID } from '@paper/contracts';
import { startTestStack, startWebhookReceiver } from '@paper/dev-stack';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { buildBenchDist, runBench } from './run-bench';
import { residentMemoryMb } from './app-metrics';

const DELIVERIES = Number(process.argv[2] ?? 3000);
const CONCURRENCY = Number(process.argv[3] ?? 32);
const CHANNELS = 20;
const SECRET = createSigningSecret();

async function main(): Promise<void> {
  buildBenchDist();
  // Both signatures checked by the receiver with plain HMAC code, so the receiver costs little beside the senders.
  const receiver = await startWebhookReceiver({ verifiers: 'own' });
  receiver.setSecret(SECRET);
  const stack = await startTestStack({
    apps: ['alerts-dispatcher'],
    env: {
      ALERTS_ALLOW_HOSTS: receiver.hostPort,
      ALERTS_WEBHOOK_RATE: '1000000/1000',
      ALERTS_DELIVERY_CONCURRENCY: String(CONCURRENCY),
      DATABASE_POOL_SIZE: String(CONCURRENCY),
    },
  });
  const db = new Client({ connectionString: stack.database.url });
  await db.connect();
  const queue = new Queue(ALERTS_DELIVERY_QUEUE.queue, {
    connection: new Redis(process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null }),
    prefix: `${stack.redisPrefix}:bull`,
  });
  try {
    const account = randomUUID();
    await db.query(
      `INSERT INTO alerts.accounts (id, token_hash) VALUES ($1, md5(random()::text) || md5(random()::text))`,
      [account],
    );
    const channels = Array.from({ length: CHANNELS }, () => randomUUID());
    await db.query(
      `INSERT INTO alerts.channels (id, account_id, kind, target, secret) SELECT c, $2, 'webhook', $3 || '/hook/' || c, $4 FROM unnest($1::uuid[]) AS c`,
      [channels, account, receiver.url, SECRET],
    );
    const alerts = Array.from({ length: Math.ceil(DELIVERIES / CHANNELS) }, () => randomUUID());
    await db.query(
      `INSERT INTO alerts.alerts (id, account_id, event_id, kind, wallet, details, occurred_at)
       SELECT a, $2, 'evt_' || replace(a::text, '-', ''), 'position_opened', '0x52908400098527886e0f7030069857d2e4169ee7',
              '{"positionId":"7","market":"BTC","side":"long","leverage":100,"marginUsd":100,"entryPrice":100000,"notionalUsd":10000}'::jsonb, now()
         FROM unnest($1::uuid[]) AS a`,
      [alerts, account],
    );
    const ids = (
      await db.query(
        `INSERT INTO alerts.deliveries (id, account_id, alert_id, channel_id, event_id)
         SELECT gen_random_uuid(), $2, a.id, c, a.event_id FROM alerts.alerts a CROSS JOIN unnest($1::uuid[]) AS c LIMIT $3 RETURNING id`,
        [channels, account, DELIVERIES],
      )
    ).rows.map((r: { id: string }) => r.id);
    const url = stack.appUrls['alerts-dispatcher']!;
    let peak = await residentMemoryMb(url);
    const started = performance.now();
    // As alerts-poller does after committing deliveries: one wake-up; the dispatcher reads the due rows.
    await queue.add('deliveries-due', {}, { jobId: DELIVERIES_DUE_JOB_ID, removeOnComplete: true });
    let delivered = 0;
    while (delivered < ids.length) {
      await new Promise((r) => setTimeout(r, 100));
      peak = Math.max(peak, await residentMemoryMb(url));
      delivered = (await db.query(`SELECT count(*)::int AS n FROM alerts.deliveries WHERE status = 'delivered'`))
        .rows[0].n;
      if (performance.now() - started > 600_000)
        throw new Error(`only ${delivered} of ${ids.length} delivered after 10 minutes`);
    }
    const seconds = (performance.now() - started) / 1000;
    const invalid = receiver.received.filter((r) => !r.valid).length;

    const baselineStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ids.length) {
          const i = next++;
          const outcome = await sendWebhook(
            { url: `${receiver.url}/hook/${channels[i % CHANNELS]}`, secrets: [SECRET] },
            buildWebhookEvent(`evt_base_${i}`, 'alert.position_opened', {}),
            { allowHosts: [receiver.hostPort] },
          );
          if (outcome.kind !== 'delivered') throw new Error(`baseline send failed: ${outcome.kind}`);
        }
      }),
    );
    const baseline = ids.length / ((performance.now() - baselineStart) / 1000);
    const rate = ids.length / seconds;
    console.log(
      `| alerts-dispatcher, ${ids.length} signed webhook deliveries to ${CHANNELS} channels on a local receiver, concurrency ${CONCURRENCY} (database pool ${CONCURRENCY}) | value |`,
    );
    console.log('| --- | ---: |');
    console.log(`| deliveries per second (enqueue to every row \`delivered\`) | ${rate.toFixed(0)} |`);
    console.log(
      `| baseline: the same signed POSTs straight from one process (no queue, no database) | ${baseline.toFixed(0)} per second |`,
    );
    console.log(`| ratio dispatcher / baseline | ${(rate / baseline).toFixed(2)} |`);
    console.log(`| signatures the receiver refused | ${invalid} |`);
    console.log(`| alerts-dispatcher peak RSS | ${peak.toFixed(0)} MB |`);
  } finally {
    await queue.close();
    await db.end();
    await stack.stop();
    await receiver.close();
  }
}

runBench(main);
