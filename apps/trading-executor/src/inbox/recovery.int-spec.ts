import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { SignedIntentPayload } from '@paper/contracts';
import { freePort, WORKSPACE_ROOT } from '@paper/dev-stack';
import { acceptIntents } from '@paper/exchange-data';
import { until } from '../testing/conditions';
import { ExchangeTestKit } from '../testing/exchange-test-kit';
import { InboxSweeper } from './inbox-sweeper.service';

/**
 * A real trading-executor process claims a batch and is killed with SIGKILL in the middle of it (its
 * batch stalls in the database, so the kill lands inside the transaction). The claim is the batch's row
 * lock, so it ends with the dead process's connection: the intents must be claimable and executed by
 * another executor within 5 s of the kill, each exactly once, with nothing of the killed batch written.
 */
describe('recovery of a batch whose executor is killed (real child process, PostgreSQL + Redis)', () => {
  let kit: ExchangeTestKit;
  let child: ChildProcess | undefined;
  let fresh: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    kit = await ExchangeTestKit.start();
    // Prices stay fresh however long the child takes to start (as the ingest keeps them).
    const publish = () => Promise.all([kit.setPrice('BTC', '100000'), kit.setPrice('ETH', '3500')]);
    await publish();
    fresh = setInterval(() => void publish().catch(() => undefined), 1000);
  });

  afterAll(async () => {
    clearInterval(fresh);
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await kit?.stop();
  });

  it('releases the claims of a killed executor at once; another executor runs every intent within 5 s, exactly once', async () => {
    const traders = [await kit.trader(1000), await kit.trader(1000), await kit.trader(1000)];
    const payloads: SignedIntentPayload[] = [];
    for (let i = 0; i < 30; i += 1)
      payloads.push(await kit.open(traders[i % 3]!, i % 2 ? 'ETH' : 'BTC', 'long', 10, 1000));
    const ids = payloads.map((p) => p.intentId.toLowerCase());
    // The killed executor's batch stalls at its open-interest update (its application_name is trading-executor).
    await kit.db.query(`CREATE FUNCTION exchange.stall() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF current_setting('application_name') = 'trading-executor' THEN PERFORM pg_sleep(300); END IF; RETURN NEW; END $$`);
    await kit.db.query(
      `CREATE TRIGGER stall BEFORE UPDATE ON exchange.markets FOR EACH ROW EXECUTE FUNCTION exchange.stall()`,
    );
    await acceptIntents(kit.db, payloads);

    const port = await freePort();
    child = spawn(
      process.execPath,
      ['-r', './tools/dev/register.cjs', path.join('apps', 'trading-executor', 'src', 'main.ts')],
      {
        cwd: WORKSPACE_ROOT,
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          NODE_ENV: 'test',
          LOG_LEVEL: 'error',
          PORT: String(port),
          DATABASE_URL: kit.database.url,
          REDIS_URL: kit.config.REDIS_URL,
          REDIS_PREFIX: kit.config.REDIS_PREFIX,
          PRICE_INGEST: 'false',
          LIQUIDATIONS: 'false',
        },
        stdio: 'ignore',
      },
    );
    try {
      // The child's sweeper claimed the intents and its batch stalls inside the transaction.
      await until(
        () =>
          kit.db.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'trading-executor' AND query LIKE '%exchange.markets%' AND state = 'active'`,
          ),
        (r) => r[0].n > 0,
        60_000,
      );
      const [{ n: free }] = await kit.db.query(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM exchange.intents WHERE id = ANY($1::varchar[]) FOR UPDATE SKIP LOCKED) t`,
        [ids],
      );
      expect(free).toBe(0); // every intent is claimed by the child's batch

      child.kill('SIGKILL');
      const killedAt = Date.now();
      await until(
        async () => child!.exitCode !== null || child!.signalCode !== null,
        (exited) => exited,
      );
      // Another executor (this process's engine, with its sweeper) claims and runs them once the claims are released.
      const sweeper = new InboxSweeper(kit.db, kit.engine, kit.ownerActions, kit.config);
      sweeper.onApplicationBootstrap();
      const results = await Promise.all(ids.map((id) => kit.intents.settle(id))).finally(() =>
        sweeper.onApplicationShutdown(),
      );
      const recoveredMs = Date.now() - killedAt;
      expect(results.map((r) => r.status)).toEqual(ids.map(() => 'executed'));
      expect(recoveredMs).toBeLessThan(5000);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await kit.db.query(`DROP TRIGGER IF EXISTS stall ON exchange.markets`);
      await kit.db.query(`DROP FUNCTION IF EXISTS exchange.stall()`);
    }
    const [{ n }] = await kit.db.query(
      `SELECT count(*)::int AS n FROM exchange.positions WHERE open_intent_id = ANY($1::varchar[])`,
      [ids],
    );
    expect(n).toBe(ids.length);
    expect(await kit.ledgerMismatches()).toEqual([]);
  });
});
