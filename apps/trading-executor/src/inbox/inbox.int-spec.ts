import { INTENTS_DUE_JOB_ID, INTENTS_QUEUE, type IntentResult, type SignedIntentPayload } from '@paper/contracts';
import { usdc } from '@paper/exchange';
import { acceptIntents, acceptOwnerAction, createExchangeDataSource } from '@paper/exchange-data';
import { generatePrivateKey } from 'viem/accounts';
import { QueueRegistry } from '@paper/nest-infra';
import { IntentEngine } from '../intents/intent-engine.service';
import { IntentProcessor } from '../intents/intent.processor';
import { IntentSubmitter } from '../testing/intent-submitter';
import { gate, until } from '../testing/conditions';
import { ExchangeTestKit, type Trader } from '../testing/exchange-test-kit';
import { InboxSweeper } from './inbox-sweeper.service';

describe('the intent inbox: acceptance, sweeper, batches, races (PostgreSQL + Redis)', () => {
  let kit: ExchangeTestKit;

  beforeAll(async () => {
    kit = await ExchangeTestKit.start({ INTENT_SWEEP_MS: '100', INTENT_BATCH_MAX: '16' });
  });

  afterAll(async () => {
    await kit?.stop();
  });

  beforeEach(async () => {
    await kit.setPrice('BTC', '100000');
    await kit.setPrice('ETH', '3500');
  });

  afterEach(async () => {
    expect(await kit.ledgerMismatches()).toEqual([]);
  });

  const statusOf = async (p: { intentId: string }) =>
    (
      await kit.db.query(`SELECT status, reason, result FROM exchange.intents WHERE id = $1`, [
        p.intentId.toLowerCase(),
      ])
    )[0] as { status: string; reason: string | null; result: IntentResult | null } | undefined;

  it('runs accepted intents and owner actions whose wake-up jobs Redis lost (the sweeper, with no queue worker)', async () => {
    const t = await kit.trader(1000);
    const opens = await Promise.all([kit.open(t, 'BTC', 'long', 100, 100), kit.open(t, 'ETH', 'short', 100, 100)]);
    const withdraw = await kit.ownerAction(t, ['withdraw', t.wallet, { amountMicro: usdc(50) }]);
    expect((await acceptIntents(kit.db, opens)).map((a) => a.state)).toEqual(['accepted', 'accepted']);
    expect(await acceptOwnerAction(kit.db, withdraw)).toEqual({
      state: 'accepted',
      id: withdraw.actionId.toLowerCase(),
    });
    await kit.intentsQueue.add('intents-due', {}, { jobId: INTENTS_DUE_JOB_ID });
    // Redis loses everything: the wake-up jobs are gone.
    const keys = await kit.redis.keys(`${kit.config.REDIS_PREFIX}:bull:*`);
    expect(keys.length).toBeGreaterThan(0);
    await kit.redis.del(...keys);
    expect(await kit.intentsQueue.getJobCounts('wait')).toEqual({ wait: 0 });
    expect((await statusOf(opens[0]!))?.status).toBe('queued');

    const sweeper = new InboxSweeper(kit.db, kit.engine, kit.ownerActions, kit.config);
    sweeper.onApplicationBootstrap();
    try {
      const rows = await until(
        () => Promise.all(opens.map(statusOf)),
        (r) => r.every((x) => x?.status !== 'queued'),
      );
      expect(rows.map((r) => [r!.status, r!.result?.opened?.market])).toEqual([
        ['executed', 'BTC'],
        ['executed', 'ETH'],
      ]);
      const [action] = await until(
        () =>
          kit.db.query(`SELECT status, result FROM exchange.owner_actions WHERE id = $1`, [
            withdraw.actionId.toLowerCase(),
          ]),
        (r) => r[0]?.status !== 'queued',
      );
      expect(action).toMatchObject({ status: 'executed', result: { amount: '50', chainUsdc: '50' } });
      expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(750), locked_micro: usdc(200) });
    } finally {
      await sweeper.onApplicationShutdown();
    }
  });

  it('treats a re-submission as the same intent and refuses a different payload under a taken id', async () => {
    const t = await kit.trader(1000);
    const open = await kit.open(t, 'BTC', 'long', 100, 100);
    const [first, again] = [await acceptIntents(kit.db, [open]), await acceptIntents(kit.db, [open])];
    expect(first).toEqual([{ state: 'accepted', id: open.intentId.toLowerCase() }]);
    expect(again).toEqual([{ state: 'known', id: open.intentId.toLowerCase(), status: 'queued', result: null }]);
    const results = await Promise.all([
      kit.intents.execute(open),
      kit.intents.execute(open),
      kit.intents.execute(open),
    ]);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    expect(await acceptIntents(kit.db, [open])).toEqual([
      { state: 'known', id: open.intentId.toLowerCase(), status: 'executed', result: results[0] },
    ]);
    // The same id with another signature (another key's) is not the same intent: refused, nothing stored.
    const forged: SignedIntentPayload = {
      ...open,
      signature: (await kit.open(t, 'BTC', 'long', 100, 100, { signer: generatePrivateKey() })).signature,
    };
    expect(await acceptIntents(kit.db, [forged])).toEqual([{ state: 'conflict', id: open.intentId.toLowerCase() }]);
    expect(await kit.intents.execute(forged)).toMatchObject({ status: 'refused', reason: 'intent_id_conflict' });
    expect(await statusOf(open)).toMatchObject({ status: 'executed', result: results[0] });
    const [{ n }] = await kit.db.query(`SELECT count(*)::int AS n FROM exchange.positions WHERE wallet = $1`, [
      t.wallet,
    ]);
    expect(n).toBe(1);
  });

  it('refuses an intent inside a batch without failing the others of the batch', async () => {
    const rich = await kit.trader(1000);
    const poor = await kit.trader(20);
    const lp = await kit.trader(1000);
    const held = (await kit.intents.execute(await kit.open(lp, 'ETH', 'long', 100, 100))).opened!.positionId;
    const batch = [
      await kit.open(rich, 'BTC', 'long', 100, 100),
      await kit.open(poor, 'BTC', 'long', 500, 100), // insufficient balance
      await kit.open(rich, 'ETH', 'short', 100, 100, { signer: generatePrivateKey() }), // bad signature
      await kit.open(rich, 'BTC', 'short', 850, 100), // 850 of the 900 rich has left
      await kit.open(rich, 'BTC', 'short', 100, 100), // only 50 left after the previous open of the batch
      await kit.close(lp, [held]),
      await kit.close(poor, [held]), // another wallet's position
    ];
    const results = await kit.batchHolding(batch, async () => undefined);
    const byId = new Map(results.map((r) => [r.intentId, r]));
    expect(
      batch.map((p) => [byId.get(p.intentId.toLowerCase())!.status, byId.get(p.intentId.toLowerCase())!.reason]),
    ).toEqual([
      ['executed', null],
      ['refused', 'insufficient_balance'],
      ['refused', 'bad_signature'],
      ['executed', null],
      ['refused', 'insufficient_balance'],
      ['executed', null],
      ['refused', 'position_not_found'],
    ]);
    for (const p of batch) expect((await statusOf(p))?.result).toEqual(byId.get(p.intentId.toLowerCase()));
    expect(await kit.account(rich.wallet)).toMatchObject({ free_micro: usdc(50), locked_micro: usdc(950) });
    expect(await kit.account(poor.wallet)).toMatchObject({ free_micro: usdc(20), locked_micro: 0n });
  });

  it('runs intents of one wallet in acceptance order inside a batch: a close frees margin an open then uses', async () => {
    const t = await kit.trader(100);
    const id = (await kit.intents.execute(await kit.open(t, 'BTC', 'long', 100, 100))).opened!.positionId;
    const [close, open] = [await kit.close(t, [id]), await kit.open(t, 'ETH', 'long', 100, 100)];
    const results = await kit.batchHolding([close, open], async () => undefined);
    expect(results.map((r) => [r.kind, r.status])).toEqual([
      ['close', 'executed'],
      ['open', 'executed'],
    ]);
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: 0n, locked_micro: usdc(100) });
  });

  it('the expiry sweep skips an intent a batch holds, and a cancel waits for that batch: the holder decides it', async () => {
    const t = await kit.trader(1000);
    const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 2);
    const held = await kit.open(t, 'BTC', 'long', 100, 100, { expiresAt });
    const { hold, reached, release } = gate();
    const running = kit.batchHolding([held], hold);
    await reached;
    let cancelling: Promise<IntentResult>;
    try {
      // Past its signed expiry now, but a batch claimed it while it was valid: the sweep must not touch it.
      await until(
        async () => Date.now(),
        (now) => now > Number(expiresAt) * 1000 + 50,
      );
      expect(await kit.expiry.expireQueued()).toBe(0);
      // A cancel of the same wallet waits for the batch (its acceptance for the event log's append lock the
      // batch holds until it commits, its execution for the account), then finds the intent executed.
      cancelling = kit.intents.execute(await kit.cancel(t, held.intentId));
      await until(
        () =>
          kit.db.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()
                AND (query LIKE '%exchange.accounts%' OR wait_event = 'advisory')`,
          ),
        (r) => r[0].n > 0,
      );
    } finally {
      release();
    }
    expect(await cancelling!).toMatchObject({ status: 'refused', reason: 'intent_not_cancellable' });
    const [result] = await running;
    expect(result).toMatchObject({ status: 'executed', opened: { market: 'BTC' } });
    expect(await statusOf(held)).toMatchObject({ status: 'executed' });
  });

  it('a cancel claims its queued target atomically: a concurrent batch skips it and it never runs', async () => {
    const t = await kit.trader(1000);
    const target = await kit.open(t, 'BTC', 'long', 100, 100);
    await acceptIntents(kit.db, [target]);
    const cancel = await kit.cancel(t, target.intentId);
    const { hold, reached, release } = gate();
    // The cancel runs in a batch of its own that holds the target until it commits.
    const cancelling = kit.batchHolding([cancel], hold);
    await reached;
    let concurrent: Promise<IntentResult>;
    try {
      // Another batch claims meanwhile: it skips the held target (SKIP LOCKED) and leaves it to the cancel.
      concurrent = kit.intents.settle(target.intentId);
      kit.engine.pump();
      await kit.engine.idle();
      expect(await statusOf(target)).toMatchObject({ status: 'queued' });
    } finally {
      release();
    }
    const cancelled = (await cancelling).find((r) => r.intentId === cancel.intentId.toLowerCase());
    expect(cancelled).toMatchObject({ status: 'executed', cancelledIntentId: target.intentId.toLowerCase() });
    expect(await concurrent!).toMatchObject({ status: 'cancelled', reason: 'cancelled_by_owner' });
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(1000), locked_micro: 0n });
  });

  it('two executors claiming concurrently execute every intent exactly once and never deadlock', async () => {
    await kit.db.query(`CREATE TABLE IF NOT EXISTS exchange.test_executions (id varchar(66), app text)`);
    await kit.db.query(`CREATE OR REPLACE FUNCTION exchange.record_execution() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO exchange.test_executions VALUES (NEW.id, current_setting('application_name')); RETURN NEW; END $$`);
    await kit.db.query(`CREATE TRIGGER record_execution AFTER UPDATE ON exchange.intents FOR EACH ROW
      WHEN (OLD.status = 'queued' AND NEW.status <> 'queued') EXECUTE FUNCTION exchange.record_execution()`);
    const second = createExchangeDataSource({ url: kit.database.url, poolSize: 10, applicationName: 'executor-b' });
    await second.initialize();
    // Batches of two: many claims, so both replicas take part whatever the machine's load.
    const small = { ...kit.config, INTENT_BATCH_MAX: 2 };
    const engineA = new IntentEngine(kit.db, kit.prices, kit.results, small);
    const executorA = new IntentSubmitter(kit.db, engineA, kit.config);
    const engineB = new IntentEngine(second, kit.prices, kit.results, small);
    const executorB = new IntentSubmitter(second, engineB, kit.config);
    try {
      const traders: Trader[] = [];
      for (let i = 0; i < 12; i += 1) traders.push(await kit.trader(1000));
      const opens: SignedIntentPayload[] = [];
      for (let round = 0; round < 8; round += 1) {
        for (const t of traders)
          opens.push(await kit.open(t, round % 2 ? 'ETH' : 'BTC', round % 3 ? 'long' : 'short', 100, 100));
      }
      await acceptIntents(kit.db, opens);
      const opened = await Promise.all(opens.map((p, i) => (i % 2 ? executorB : executorA).execute(p)));
      expect(opened.every((r) => r.status === 'executed')).toBe(true);
      // Closes of every account through both executors at once: every close takes the protocol row.
      const closes = await Promise.all(
        opened.map((r, i) => kit.close(traders[i % traders.length]!, [r.opened!.positionId])),
      );
      await acceptIntents(kit.db, closes);
      const closed = await Promise.all(closes.map((p, i) => (i % 2 ? executorA : executorB).execute(p)));
      expect(closed.map((r) => r.status)).toEqual(closes.map(() => 'executed'));

      const runs = await kit.db.query(
        `SELECT id, count(*)::int AS n, min(app) AS app FROM exchange.test_executions GROUP BY id`,
      );
      expect(runs).toHaveLength(opens.length + closes.length);
      expect(runs.every((r: { n: number }) => r.n === 1)).toBe(true);
      const apps = new Set(runs.map((r: { app: string }) => r.app));
      expect(apps).toEqual(new Set(['executor-int-test', 'executor-b']));
      const [{ n }] = await kit.db.query(
        `SELECT count(*)::int AS n FROM exchange.positions WHERE open_intent_id = ANY($1::varchar[]) AND status = 'closed'`,
        [opens.map((p) => p.intentId.toLowerCase())],
      );
      expect(n).toBe(opens.length);
    } finally {
      await engineA.beforeApplicationShutdown();
      await engineB.beforeApplicationShutdown();
      await Promise.all([executorA.close(), executorB.close()]);
      await second.destroy();
      await kit.db.query(`DROP TRIGGER record_execution ON exchange.intents`);
      await kit.db.query(`DROP FUNCTION exchange.record_execution()`);
      await kit.db.query(`DROP TABLE exchange.test_executions`);
    }
  });

  it('wakes the executor through the intents queue: an intents-due job runs what the inbox holds', async () => {
    const registry = new QueueRegistry(kit.config);
    new IntentProcessor(registry, kit.engine, kit.config).onApplicationBootstrap();
    try {
      const t = await kit.trader(1000);
      const open = await kit.open(t, 'BTC', 'long', 100, 100);
      await acceptIntents(kit.db, [open]);
      await registry.wakeUp(INTENTS_QUEUE, 'intents-due', {}, { jobId: INTENTS_DUE_JOB_ID }, 1000);
      const row = await until(
        () => statusOf(open),
        (r) => r?.status !== 'queued',
      );
      expect(row).toMatchObject({ status: 'executed', result: { opened: { market: 'BTC' } } });
    } finally {
      await registry.onApplicationShutdown();
      await kit.engine.idle();
    }
  });
});
