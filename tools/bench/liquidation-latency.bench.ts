/**
 * Liquidation latency at 100,000 open positions: price tick published -> every position past the mark
 * liquidated, for ticks that each liquidate one cluster of positions, against the baseline of ticks that
 * liquidate nothing (the index range query alone), in the same run. Positions are seeded with SQL.
 * Run: node -r ./tools/dev/register.cjs tools/bench/liquidation-latency.bench.ts [clusters, default 30] [cluster size, default 400]
 */
import { Client } from 'pg';
import { metricValue } from './app-metrics';
import { pct, startExecutorBench } from './executor-bench-support';
import { runBench } from './run-bench';

const CLUSTERS = Number(process.argv[2] ?? 30);
const CLUSTER_SIZE = Number(process.argv[3] ?? 400);
const TOTAL = 100_000;
const WALLETS = 2000;
const BUST = (e: string, l: string, sign: '-' | '+') =>
  // bust = zero +/- floor(zero * 0.000476), zero = E -/+ floor(E / L): the formula of @paper/exchange in SQL integer arithmetic
  `((${e}) ${sign} (${e}) / (${l})) ${sign === '-' ? '+' : '-'} (((${e}) ${sign} (${e}) / (${l})) * 476 / 1000000)`;

/** 100,000 open BTC positions: background longs and shorts far from the price, plus clusters of 500x longs just below it. */
async function seedPositions(url: string): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  const background = TOTAL - CLUSTERS * CLUSTER_SIZE;
  await db.query(`INSERT INTO exchange.accounts (wallet, deposit_address, activated, free_micro)
    SELECT '0x' || lpad(to_hex(i), 40, '0'), '0x' || lpad(to_hex(i + 10000000), 40, '0'), true, 1000000000000 FROM generate_series(1, ${WALLETS}) i`);
  await db.query(`INSERT INTO exchange.positions (wallet, market, side, margin_micro, leverage, notional_micro, entry_price, bust_price, opened_at)
    SELECT '0x' || lpad(to_hex(1 + i % ${WALLETS}), 40, '0'), 'BTC', CASE WHEN i % 2 = 0 THEN 'long' ELSE 'short' END, 5000000000, lev, 5000000000 * lev, e,
           CASE WHEN i % 2 = 0 THEN ${BUST('e', 'lev', '-')} ELSE ${BUST('e', 'lev', '+')} END, now()
      FROM (SELECT i, 2 + i % 19 AS lev, CASE WHEN i % 2 = 0 THEN 970000 + (i * 7919) % 30000 ELSE 1000000 + (i * 7919) % 30000 END::bigint AS e
              FROM generate_series(1, ${background}) i) s`);
  await db.query(`INSERT INTO exchange.positions (wallet, market, side, margin_micro, leverage, notional_micro, entry_price, bust_price, opened_at)
    SELECT '0x' || lpad(to_hex(1 + i % ${WALLETS}), 40, '0'), 'BTC', 'long', 20000000, 500, 10000000000, e, ${BUST('e', '500', '-')}, now()
      FROM (SELECT i, (1000000 - 1000 * (i / ${CLUSTER_SIZE}) - (i * 13) % 50)::bigint AS e FROM generate_series(0, ${CLUSTERS * CLUSTER_SIZE - 1}) i) s`);
  await db.query(
    `UPDATE exchange.accounts a SET locked_micro = s.m FROM (SELECT wallet, sum(margin_micro) AS m FROM exchange.positions GROUP BY wallet) s WHERE a.wallet = s.wallet`,
  );
  await db.query(`UPDATE exchange.markets SET long_oi_micro = (SELECT sum(notional_micro) FROM exchange.positions WHERE side = 'long'),
                                          short_oi_micro = (SELECT sum(notional_micro) FROM exchange.positions WHERE side = 'short') WHERE market = 'BTC'`);
  await db.query('ANALYZE exchange.positions');
  await db.end();
}

async function main(): Promise<void> {
  console.log(`seeding ${TOTAL} open positions (${CLUSTERS} clusters of ${CLUSTER_SIZE}) ...`);
  const bench = await startExecutorBench({ LIQUIDATIONS: 'true' }, seedPositions);
  const db = new Client({ connectionString: bench.database.url });
  await db.connect();
  const passes = async () => ({
    count: await metricValue(bench.executorUrl, 'exchange_liquidation_pass_seconds_count'),
    sum: await metricValue(bench.executorUrl, 'exchange_liquidation_pass_seconds_sum'),
  });
  const waitPass = async (before: number) => {
    for (;;) {
      const p = await passes();
      if (p.count > before) return p;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  try {
    const { rows: open } = await db.query(`SELECT count(*)::int AS n FROM exchange.positions WHERE status = 'open'`);
    const { rows: marks } = await db.query(
      `SELECT (1000000 - entry_price) / 1000 AS k, min(bust_price) - 1 AS mark FROM exchange.positions WHERE leverage = 500 GROUP BY 1 ORDER BY 1`,
    );
    // Warm-up: wait until this executor holds the liquidator lease and has run a pass.
    for (let before = (await passes()).count || 0; ;) {
      await bench.tick('BTC', 1_000_000n);
      await new Promise((r) => setTimeout(r, 200));
      if ((await passes()).count > before) break;
    }
    const baselinePass: number[] = [];
    const cluster: number[] = [];
    const clusterPass: number[] = [];
    for (const { mark } of marks) {
      // Baseline: a tick at the current level liquidates nothing.
      let p0 = await passes();
      await bench.tick('BTC', 1_000_000n);
      let p1 = await waitPass(p0.count);
      baselinePass.push((p1.sum - p0.sum) * 1000);
      // A tick to just below the next cluster's bust prices liquidates that cluster.
      p0 = p1;
      const t0 = performance.now();
      await bench.tick('BTC', BigInt(mark));
      for (;;) {
        const { rows } = await db.query(
          `SELECT count(*)::int AS n FROM exchange.positions WHERE market = 'BTC' AND side = 'long' AND status = 'open' AND bust_price >= $1`,
          [mark],
        );
        if (rows[0].n === 0) break;
      }
      cluster.push(performance.now() - t0);
      p1 = await waitPass(p0.count);
      clusterPass.push((p1.sum - p0.sum) * 1000);
      await bench.sampleRss();
    }
    const { rows: liquidated } = await db.query(
      `SELECT count(*)::int AS n FROM exchange.positions WHERE status = 'liquidated'`,
    );
    const { rows: wrong } = await db.query(
      `SELECT count(*)::int AS n FROM exchange.positions WHERE status = 'liquidated' AND leverage <> 500`,
    );
    const row = (name: string, v: number[]) =>
      `| ${name} | ${v.length} | ${pct(v, 50).toFixed(1)} | ${pct(v, 99).toFixed(1)} |`;
    console.log(
      `\nopen positions at start: ${open[0].n}; liquidated: ${liquidated[0].n} (expected ${CLUSTERS * CLUSTER_SIZE}, background hit: ${wrong[0].n})`,
    );
    console.log('\n| tick | samples | p50 ms | p99 ms |');
    console.log('| --- | ---: | ---: | ---: |');
    console.log(row('baseline: executor pass for a tick liquidating nothing (index range query only)', baselinePass));
    console.log(row(`tick liquidating a cluster of ${CLUSTER_SIZE}, publish -> all liquidated`, cluster));
    console.log(row(`executor pass time for a cluster of ${CLUSTER_SIZE}`, clusterPass));
    console.log(`\ncluster pass / baseline pass (p50): ${(pct(clusterPass, 50) / pct(baselinePass, 50)).toFixed(1)}x`);
    console.log(`trading-executor peak RSS: ${bench.peakRssMb().toFixed(0)} MB`);
  } finally {
    await db.end();
    await bench.stop();
  }
}

runBench(main);
