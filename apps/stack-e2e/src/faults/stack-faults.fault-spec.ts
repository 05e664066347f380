import { callTool, waitFor } from '../tools/tool-test-kit';
import {
  type Burst,
  type BurstVerdict,
  CLEAN_VERDICT,
  type FaultLab,
  FAULT_APPS,
  badProbeAnswers,
  hitsByEvent,
  intentBurst,
  judgeBurst,
  lostResponsesRun,
  probeApps,
  queueDeliveries,
  recordExperiment,
  schedulesResumed,
  startFaultLab,
  webhookAccount,
} from './harness';

/**
 * The fault experiments: the built apps on an isolated database (behind a fault proxy) and a private
 * redis-server, broken the ways production breaks them. Each experiment asserts that every accepted
 * intent ends exactly once in a definite state, nothing fails for good, no effect or delivery happens
 * twice, the books balance, no caller gets a 500, and no process dies of a dependency's error.
 * Figures (durations, recovery times) go to tmp/fault-suite.json.
 */
describe('fault experiments', () => {
  let lab: FaultLab;
  const EXECUTOR = 'trading-executor';

  beforeAll(async () => {
    lab = await startFaultLab({ env: { ALERTS_WEBHOOK_RATE: '100/1000' } });
  }, 240_000);

  afterAll(async () => {
    await lab?.stop();
  }, 60_000);

  /** Every app still runs (none died of the fault); apps an experiment stopped were started again. */
  const expectAllAlive = () => expect(FAULT_APPS.filter((app) => !lab.alive(app))).toEqual([]);

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** Ids of the intents not final yet: waiting for a batch, or held by one. */
  const queuedIntents = async () =>
    (await lab.sql<{ id: string }>(`SELECT id FROM exchange.intents WHERE status = 'queued'`)).map((r) => r.id);

  /** Judges a burst and records the experiment's figures with what became of the burst. */
  const settle = async (
    experiment: string,
    burst: Burst,
    figures: Record<string, unknown> = {},
  ): Promise<BurstVerdict> => {
    const verdict = await judgeBurst(lab, burst);
    const { calls, answers, accepted, executed } = verdict;
    recordExperiment(experiment, { ...figures, calls, answers, accepted, executed, lost: verdict.lost.length });
    return verdict;
  };

  /** Every accepted intent ended once, nothing failed or broke, some intents were accepted, no app died. */
  const expectClean = (verdict: BurstVerdict) => {
    expect(verdict).toMatchObject(CLEAN_VERDICT);
    expect(verdict.accepted).toBeGreaterThan(0);
    expectAllAlive();
  };

  it('PostgreSQL connections terminated every second for 20 s during a burst', async () => {
    let terminated = 0;
    const started = Date.now();
    const burst = await intentBurst(lab, async () => {
      for (let i = 0; i < 20; i += 1) {
        terminated += await lab.terminateBackends();
        await sleep(1000);
      }
    });
    const verdict = await settle('pg-terminate-every-second', burst, {
      seconds: (Date.now() - started) / 1000,
      terminated,
    });
    expect(terminated).toBeGreaterThan(20);
    expectClean(verdict);
  }, 180_000);

  it('PostgreSQL refusing connections for 20 s during a burst', async () => {
    const started = Date.now();
    let cut = 0;
    let probes: Awaited<ReturnType<typeof probeApps>> = [];
    const burst = await intentBurst(lab, async () => {
      lab.proxy.refuse(true);
      cut = lab.proxy.cutAll();
      const refusedUntil = Date.now() + 20_000;
      // Every HTTP app answers requests that need the database with a retryable refusal, never a 500.
      probes = await probeApps(lab);
      await sleep(Math.max(0, refusedUntil - Date.now()));
      lab.proxy.refuse(false);
    });
    const verdict = await settle('pg-refusing-20s', burst, { seconds: (Date.now() - started) / 1000, cut, probes });
    expect(cut).toBeGreaterThan(0);
    expect(badProbeAnswers(probes)).toEqual([]);
    expectClean(verdict);
  }, 180_000);

  it('executor SIGTERM during a burst drains and fails nothing', async () => {
    let exitCode: number | null = null;
    let restartMs = 0;
    const burst = await intentBurst(lab, async () => {
      await sleep(1000);
      exitCode = await lab.stack.stopApp(EXECUTOR);
      const t = Date.now();
      await lab.stack.restartApp(EXECUTOR);
      restartMs = Date.now() - t;
    });
    const verdict = await settle('executor-sigterm', burst, { exitCode, restartMs });
    expect(exitCode).toBe(0);
    expectClean(verdict);
  }, 180_000);

  it('executor killed with SIGKILL twice within the lock window during a burst', async () => {
    let heldAtKills = 0;
    const burst = await intentBurst(lab, async () => {
      for (let kill = 0; kill < 2; kill += 1) {
        // Kill while intents are queued or held by a batch of the executor.
        await waitFor(
          'an intent in flight',
          async () => ((await queuedIntents()).length > 0 ? true : undefined),
          20_000,
        ).catch(() => undefined);
        heldAtKills += (await queuedIntents()).length;
        await lab.stack.stopApp(EXECUTOR, true);
        await lab.stack.restartApp(EXECUTOR);
      }
    });
    const verdict = await settle('executor-sigkill-twice', burst, { heldAtKills });
    expectClean(verdict);
  }, 180_000);

  it('two executor replicas: one killed with SIGKILL, the other runs its intents within 5 s', async () => {
    const replica = await lab.stack.addReplica(EXECUTOR);
    let recoveryMs = 0;
    let held: string[] = [];
    try {
      const burst = await intentBurst(lab, async () => {
        await waitFor(
          'intents in flight',
          async () => ((await queuedIntents()).length > 0 ? true : undefined),
          20_000,
        ).catch(() => undefined);
        await lab.stack.stopApp(EXECUTOR, true);
        const killedAt = Date.now();
        // Whatever was queued or held by the killed replica's batches (rolled back with its connections).
        held = await queuedIntents();
        // The surviving replica runs all of it.
        await waitFor(
          "the killed replica's intents to run elsewhere",
          async () => {
            if (held.length === 0) return true;
            const rows = await lab.sql<{ n: string }>(
              `SELECT count(*) AS n FROM exchange.intents WHERE id = ANY($1) AND status <> 'queued'`,
              [held],
            );
            return Number(rows[0]!.n) === held.length ? true : undefined;
          },
          30_000,
        );
        recoveryMs = Date.now() - killedAt;
        await lab.stack.restartApp(EXECUTOR);
      });
      const verdict = await settle('two-replicas-one-killed', burst, { held: held.length, recoveryMs });
      expectClean(verdict);
      expect(recoveryMs).toBeLessThan(5000);
      expect(lab.alive(replica)).toBe(true);
    } finally {
      await lab.stack.stopApp(replica);
    }
  }, 180_000);

  it('alerts-dispatcher SIGTERM with 10 deliveries in flight sends each exactly once', async () => {
    const { accountId, channelId } = await webhookAccount(lab);
    const receivedBefore = lab.receiver.received.length;
    const heldBefore = lab.receiver.held;
    lab.receiver.hold(true);
    let deliveries: { id: string; eventId: string }[] = [];
    try {
      deliveries = await queueDeliveries(lab, accountId, channelId, 10);
      await waitFor(
        '10 deliveries held open by the receiver',
        async () => (lab.receiver.held >= heldBefore + 10 ? true : undefined),
        30_000,
      );
      const stopping = lab.stack.stopApp('alerts-dispatcher');
      await waitFor('the dispatcher to start draining', async () => {
        const res = await fetch(`${lab.stack.appUrls['alerts-dispatcher']}/readyz`).catch(() => undefined);
        return !res || res.status === 503 ? true : undefined;
      });
      lab.receiver.hold(false);
      expect(await stopping).toBe(0);
    } finally {
      lab.receiver.hold(false);
    }
    const rows = await lab.sql<{ status: string }>(`SELECT status FROM alerts.deliveries WHERE id = ANY($1)`, [
      deliveries.map((d) => d.id),
    ]);
    expect(rows.map((r) => r.status)).toEqual(Array(10).fill('delivered'));
    await lab.stack.restartApp('alerts-dispatcher');
    // Two outbox sweeps after the restart: a delivery without a record would be sent again by now.
    const restarted = Date.now();
    await schedulesResumed(lab, restarted, 60_000, ['alerts-deliveries/sweep-deliveries']);
    await schedulesResumed(lab, Date.now(), 60_000, ['alerts-deliveries/sweep-deliveries']);
    const hits = hitsByEvent(lab);
    expect(deliveries.map((d) => hits.get(d.eventId) ?? 0)).toEqual(Array(10).fill(1));
    recordExperiment('dispatcher-sigterm', {
      deliveries: 10,
      receiverHits: lab.receiver.received.length - receivedBefore,
    });
    expectAllAlive();
  }, 180_000);

  it('Redis restarted without persistence during a burst: answers within 2 s while down, schedules resume within 60 s', async () => {
    const downAnswers: { tool: string; status: number; ms: number; retryAfter: string | null }[] = [];
    let appProbes: Awaited<ReturnType<typeof probeApps>> = [];
    let restartedAt = 0;
    const burst = await intentBurst(lab, async () => {
      await lab.redis.kill();
      // While Redis is down, requests that need it answer promptly: done, or a retryable refusal.
      const probes: [string, Record<string, unknown>, string | undefined][] = [
        ['get_markets', {}, undefined],
        ['calculate_position', { market: 'ETH', side: 'short', marginUsd: 10, leverage: 100 }, undefined],
        ['open_position', { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1000 }, lab.traders[0]!.token],
      ];
      for (const [tool, args, token] of probes) {
        const t = Date.now();
        const res = await callTool(lab.stack.baseUrl, tool, args, token ? { token } : {});
        downAnswers.push({ tool, status: res.status, ms: Date.now() - t, retryAfter: res.headers.get('retry-after') });
      }
      appProbes = await probeApps(lab);
      await lab.redis.start();
      restartedAt = Date.now();
    });
    const resumed = await schedulesResumed(lab, restartedAt);
    const verdict = await settle('redis-restart-empty', burst, {
      downAnswers,
      appProbes,
      schedulesResumedAfterSeconds: resumed,
    });
    expect(badProbeAnswers(appProbes)).toEqual([]);
    expect(appProbes.filter((a) => a.ms >= 2000)).toEqual([]);
    for (const answer of downAnswers) {
      expect(answer.ms).toBeLessThan(2000);
      expect(
        answer.status === 200 || ((answer.status === 502 || answer.status === 503) && answer.retryAfter !== null),
      ).toBe(true);
    }
    expectClean(verdict);
  }, 240_000);

  it('1 in 3 write answers lost on the way back: 1,000 writes retried with their keys over REST and MCP act once each', async () => {
    const run = await lostResponsesRun(lab, { operations: 1000, traders: 8, seed: 20261127 });
    const positions = await lab.sql<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM exchange.positions WHERE wallet = ANY($1) GROUP BY status`,
      [run.wallets],
    );
    const intents = await lab.sql<{ kind: string; n: number }>(
      `SELECT kind, count(*)::int AS n FROM exchange.intents WHERE wallet = ANY($1) GROUP BY kind ORDER BY kind`,
      [run.wallets],
    );
    recordExperiment('lost-responses', { ...run, wallets: run.wallets.length, positions, intents });
    expect(run.operations).toBeGreaterThanOrEqual(1000);
    expect(run.viaMcp).toBe(run.operations / 2);
    // About a third of the write calls lost their answer, and those writes were sent again.
    expect(run.lost).toBeGreaterThan(run.operations / 5);
    expect(run.retried).toBeGreaterThan(run.operations / 5);
    // One position per open, each closed once; one intent per write, however many times it was sent.
    expect(positions).toEqual([{ status: 'closed', n: run.opens }]);
    expect(intents).toEqual([
      { kind: 'close', n: run.closes },
      { kind: 'open', n: run.opens },
    ]);
    expect(await lab.auditLedger()).toEqual([]);
    expectAllAlive();
  }, 300_000);
});
