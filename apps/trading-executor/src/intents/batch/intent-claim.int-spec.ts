import type { SignedIntentPayload } from '@paper/contracts';
import { acceptIntents } from '@paper/exchange-data';
import { inTransaction } from '../../database/sql-transaction';
import { gate } from '../../testing/conditions';
import { ExchangeTestKit } from '../../testing/exchange-test-kit';
import { claimQueuedIntents } from './intent-claim';

describe('intent claims (PostgreSQL)', () => {
  let kit: ExchangeTestKit;

  beforeAll(async () => {
    kit = await ExchangeTestKit.start({ INTENT_BATCH_MAX: '4' });
  });

  afterAll(async () => {
    await kit?.stop();
  });

  beforeEach(async () => {
    await kit.setPrice('BTC', '100000');
    await kit.setPrice('ETH', '3500');
  });

  it("takes the oldest wallets' queued intents together, in acceptance order, and leaves the other wallets to a concurrent claim", async () => {
    const [a, b, c] = [await kit.trader(1000), await kit.trader(1000), await kit.trader(1000)];
    // Accepted round by round: a0 b0 c0 a1 b1 c1 a2 b2 c2.
    const rounds: SignedIntentPayload[][] = [];
    for (let round = 0; round < 3; round += 1)
      rounds.push([
        await kit.open(a, 'BTC', 'long', 100, 100),
        await kit.open(b, 'BTC', 'long', 100, 100),
        await kit.open(c, 'BTC', 'long', 100, 100),
      ]);
    await acceptIntents(kit.db, rounds.flat());
    const id = (p: SignedIntentPayload) => p.intentId.toLowerCase();
    const [a0, b0, c0] = rounds[0]!.map(id);
    const [a1, , c1] = rounds[1]!.map(id);
    const [a2, , c2] = rounds[2]!.map(id);

    const held = gate();
    const first = inTransaction(kit.db, async (sql) => {
      const rows = await claimQueuedIntents(sql, 4);
      await held.hold();
      return rows;
    });
    await held.reached;
    // While the first claim holds a and b, a concurrent claim finds every queued intent of c, and none of a or b.
    const second = await inTransaction(kit.db, (sql) => claimQueuedIntents(sql, 4));
    held.release();

    expect((await first).map((r) => r.id)).toEqual([a0, b0, a1, a2]);
    expect(second.map((r) => r.id)).toEqual([c0, c1, c2]);
  });

  it('reports a full claim as a backlog (so the other replicas are woken), and a claim of one intent as none', async () => {
    let backlogs = 0;
    kit.engine.onBacklog(() => (backlogs += 1));
    // The nine intents of the test above are still queued: the first claim is full.
    kit.engine.pump();
    await kit.engine.idle();
    expect(backlogs).toBeGreaterThan(0);
    const statuses = await kit.db.query(
      `SELECT status, reason, count(*)::int AS n FROM exchange.intents GROUP BY status, reason`,
    );
    expect(statuses).toEqual([{ status: 'executed', reason: null, n: 9 }]);

    backlogs = 0;
    const one = await kit.open(await kit.trader(1000), 'ETH', 'short', 100, 100);
    await acceptIntents(kit.db, [one]);
    kit.engine.pump();
    await kit.engine.idle();
    expect(backlogs).toBe(0);
    const [row] = await kit.db.query(`SELECT status, reason FROM exchange.intents WHERE id = $1`, [
      one.intentId.toLowerCase(),
    ]);
    expect(row).toEqual({ status: 'executed', reason: null });
  });
});
