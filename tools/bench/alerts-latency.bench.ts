/**
 * Price move to webhook: the time from a venue price change (venue-sim control API) to the signed
 * liquidation-risk webhook arriving at a local receiver, through the whole stack (executor price ingest,
 * tool API with its 5-second public cache, alerts-poller, alerts-dispatcher). The baseline measured in the
 * same run is the time until the tool API's get_markets shows the new price (the floor the cache sets).
 * Also the peak RSS of the alerts services.
 * Run: node -r ./tools/dev/register.cjs tools/bench/alerts-latency.bench.ts [samples, default 15] [ALERTS_POLL_MS, default 1000]
 * (builds the apps into dist/bench-<pid> first; fresh database and Redis prefix).
 */
import { eventually, newAccount, sql } from '../../apps/stack-e2e/src/alerts/alerts-test-kit';
import { openPosition, startDeliveryWorld } from '../../apps/stack-e2e/src/alerts-delivery/alerts-delivery-kit';
import { callTool, connectTrader, setVenuePrice } from '../../apps/stack-e2e/src/tools/tool-test-kit';
import { buildBenchDist, runBench } from './run-bench';
import { residentMemoryMb } from './app-metrics';

const SAMPLES = Number(process.argv[2] ?? 15);
const POLL_MS = process.argv[3] ?? '1000';
const ALERTS_APPS = ['alerts-api', 'alerts-poller', 'alerts-dispatcher'] as const;

const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

async function main(): Promise<void> {
  buildBenchDist();
  const world = await startDeliveryWorld({ ALERTS_POLL_MS: POLL_MS, LOG_LEVEL: 'warn' });
  const { stack, call, receiver } = world;
  const peak: Record<string, number> = Object.fromEntries(ALERTS_APPS.map((a) => [a, 0]));
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      for (const app of ALERTS_APPS)
        peak[app] = Math.max(peak[app]!, await residentMemoryMb(stack.appUrls[app]!).catch(() => 0));
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  const markAt = async (price: number) => {
    const res = await callTool(stack.baseUrl, 'get_markets', {}, { method: 'GET' });
    return res.body.data?.['markets']?.some(
      (m: { market: string; markPrice: number }) => m.market === 'BTC' && m.markPrice === price,
    );
  };
  try {
    await setVenuePrice(stack, 'BTC', 100_000);
    await eventually(() => markAt(100_000), 30000, 'BTC at 100,000');
    const trader = await connectTrader(stack, world.issuer, { fundUsd: 1000 });
    const { token } = await newAccount(call);
    const hook = await call<{ signingSecret: string }>('POST', '/api/channels', {
      token,
      body: { kind: 'webhook', target: `${receiver.url}/alerts` },
    });
    receiver.setSecret(hook.body.signingSecret);
    const watch = await call<{ id: string }>('POST', '/api/watches', {
      token,
      body: {
        address: trader.wallet,
        rules: { liquidation: { enabled: true, belowPct: 0.5 }, sessionKey: { enabled: false } },
      },
    });
    await eventually(
      async () =>
        (
          await sql(stack.database.url, `SELECT 1 FROM alerts.rule_state WHERE watch_id = $1 AND rule = 'positions'`, [
            watch.body.id,
          ])
        ).length > 0,
      30000,
      'seeded watch',
    );
    const { positionId } = await openPosition(stack.baseUrl, trader, {
      market: 'BTC',
      side: 'long',
      marginUsd: 100,
      leverage: 100,
    });
    const phase = async () =>
      (
        await sql<{ phase: string }>(
          stack.database.url,
          `SELECT state->'positions'->$2->>'phase' AS phase FROM alerts.rule_state WHERE watch_id = $1 AND rule = 'positions'`,
          [watch.body.id, positionId],
        )
      )[0]?.phase;
    await eventually(async () => (await phase()) === 'armed', 30000, 'the position tracked');

    const latencies: number[] = [];
    const floors: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) {
      const seen = new Set(receiver.accepted().map((r) => r.eventId));
      const t0 = Date.now();
      await setVenuePrice(stack, 'BTC', 99_400);
      const floor = eventually(() => markAt(99_400), 30000, 'the new mark').then(() => Date.now() - t0);
      const receipt = await eventually(
        async () => receiver.accepted().find((r) => r.body?.['kind'] === 'liquidation_risk' && !seen.has(r.eventId)),
        60000,
        'the liquidation-risk webhook',
      );
      latencies.push(receipt.at - t0);
      floors.push(await floor);
      await setVenuePrice(stack, 'BTC', 99_800);
      await eventually(async () => (await phase()) === 'armed', 60000, 're-armed');
    }
    sampling = false;
    await sampler;
    console.log(`| price move to webhook, ${SAMPLES} samples, ALERTS_POLL_MS=${POLL_MS} | p50 | p99 |`);
    console.log('| --- | ---: | ---: |');
    console.log(
      `| venue price change to signed liquidation-risk webhook received | ${pct(latencies, 50)} ms | ${pct(latencies, 99)} ms |`,
    );
    console.log(
      `| baseline: venue price change to get_markets showing it (ingest + 5 s cache) | ${pct(floors, 50)} ms | ${pct(floors, 99)} ms |`,
    );
    console.log(
      `| alerting part (webhook latency minus baseline, per sample) | ${pct(
        latencies.map((l, i) => l - floors[i]!),
        50,
      )} ms | ${pct(
        latencies.map((l, i) => l - floors[i]!),
        99,
      )} ms |`,
    );
    console.log(`\n| service | peak RSS (MB) |\n| --- | ---: |`);
    for (const app of ALERTS_APPS) console.log(`| ${app} | ${peak[app]!.toFixed(0)} |`);
  } finally {
    sampling = false;
    await sampler;
    await world.stop();
  }
}

runBench(main);
