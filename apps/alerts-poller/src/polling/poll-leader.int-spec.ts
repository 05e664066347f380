import { Redis } from 'ioredis';
import type { TradeEvent } from '../tool-api/tool-data';
import { withPollerKit } from '../testing/poller-test-kit';
import { FIXTURE_WALLET as W, recentTrades, trade } from '../testing/tool-fixtures';
import { type Lease, LeaseLostError, PollLeader } from './poll-leader';

const open = (id: string): TradeEvent => trade('open', id, { time: new Date().toISOString() });

/** Two poller instances (their own services, leaders and Redis connections) against one Redis and one PostgreSQL. */
describe('poll leader and commit fencing (PostgreSQL + Redis, tool API stand-in)', () => {
  const t = withPollerKit({ ALERTS_TOOL_TIMEOUT_MS: '30000' });
  const connections: Redis[] = [];

  afterAll(async () => {
    for (const c of connections) c.disconnect();
  });

  beforeEach(async () => {
    await t.kit.query(`TRUNCATE alerts.accounts, alerts.poll_status CASCADE`);
  });

  const key = () => `${t.kit.config.REDIS_PREFIX}:alerts:poll-leader:wallets`;
  const instance = (ttlMs: number) => {
    const redis = new Redis(t.kit.config.REDIS_URL, { maxRetriesPerRequest: 1 });
    connections.push(redis);
    const services = t.kit.poller();
    const leader = new PollLeader(redis, key(), ttlMs);
    let lease: Lease | undefined;
    return {
      redis,
      lease: () => lease,
      pass: () => leader.runExclusive((l) => ((lease = l), services.wallets.run(l))),
    };
  };
  /** The first feed read answers `held` only once released; later reads answer `trades()`. */
  const holdFirstFeed = (held: TradeEvent[], trades: () => TradeEvent[]) => {
    let release!: () => void;
    let entered!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (entered = resolve));
    let first = true;
    t.api.data['get_recent_trades'] = async () => {
      if (!first) return recentTrades(trades());
      first = false;
      entered();
      await gate;
      return recentTrades(held);
    };
    return { reached, release };
  };
  const watchTradesOnly = async () => {
    const accountId = await t.kit.account();
    await t.kit.channel(accountId);
    await t.kit.watch(
      accountId,
      W,
      { liquidation: { enabled: false }, sessionKey: { enabled: false } },
      new Date(Date.now() - 60_000),
    );
    return accountId;
  };
  const positionsAlerted = async () =>
    (await t.kit.query<{ p: string }>(`SELECT details->>'positionId' AS p FROM alerts.alerts ORDER BY p`)).map(
      (r) => r.p,
    );

  it('runs one pass at a time: a second poller skips while the first holds the lease', async () => {
    await watchTradesOnly();
    const a = instance(2000);
    const b = instance(2000);
    const feed = holdFirstFeed([open('1')], () => [open('1')]);
    const passA = a.pass();
    await feed.reached;
    expect(await b.pass()).toBeUndefined();
    feed.release();
    expect(await passA).toMatchObject({ alerts: 1 });
    expect(await b.pass()).toMatchObject({ alerts: 0 });
    expect(await positionsAlerted()).toEqual(['1']);
  });

  it("a leader whose lease lapsed mid-pass commits nothing; the next leader's pass stands", async () => {
    await watchTradesOnly();
    const a = instance(2000);
    const b = instance(2000);
    const feed = holdFirstFeed([open('stale')], () => [open('fresh')]);
    const passA = a.pass();
    await feed.reached;
    await b.redis.del(key());
    expect(await b.pass()).toMatchObject({ alerts: 1 });
    const [afterB] = await t.kit.query<{ details: { generation: string }; last_ok: boolean }>(
      `SELECT details, last_ok FROM alerts.poll_status WHERE name = 'wallets'`,
    );
    feed.release();
    await expect(passA).rejects.toBeInstanceOf(LeaseLostError);
    expect(await positionsAlerted()).toEqual(['fresh']);
    const [status] = await t.kit.query<{ details: { generation: string }; last_ok: boolean }>(
      `SELECT details, last_ok FROM alerts.poll_status WHERE name = 'wallets'`,
    );
    expect(status).toEqual(afterB);
  });

  it('a pass whose lease can no longer be renewed stops writing (renewal errors are not ignored)', async () => {
    await watchTradesOnly();
    const a = instance(600);
    const feed = holdFirstFeed([open('orphan')], () => []);
    const passA = a.pass();
    await feed.reached;
    a.redis.disconnect();
    const deadline = Date.now() + 10_000;
    while (!a.lease()?.signal.aborted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(a.lease()?.signal.aborted).toBe(true);
    feed.release();
    await expect(passA).rejects.toBeInstanceOf(LeaseLostError);
    expect(await positionsAlerted()).toEqual([]);
    expect(await t.kit.query(`SELECT 1 FROM alerts.poll_status`)).toEqual([]);
  });
});
