import { usdc } from '@paper/exchange';
import { inTransaction } from '../database/sql-transaction';
import { ExchangeTestKit } from '../testing/exchange-test-kit';
import { lockPool } from '@paper/exchange-data';

describe('payout-queue harvest under concurrency, and the LP cap (PostgreSQL + Redis)', () => {
  let kit: ExchangeTestKit;

  beforeAll(async () => {
    kit = await ExchangeTestKit.start({ LP_CAP_USDC: '100' });
    await kit.setPrice('BTC', '100000');
  });

  afterAll(async () => {
    await kit?.stop();
  });

  afterEach(async () => {
    expect(await kit.ledgerMismatches()).toEqual([]);
  });

  /** Resolves once some statement mentioning `text` waits for a lock. */
  async function waitingForLock(text: string): Promise<void> {
    for (let i = 0; i < 200; i += 1) {
      const [{ n }] = await kit.db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE $1`,
        [`%${text}%`],
      );
      if (n > 0) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no statement on ${text} waited for a lock`);
  }

  it('reads "queue not empty" after taking the protocol lock, so it sees an entry queued by the lock holder it waited for', async () => {
    const t = await kit.trader(100);
    const opened = await kit.intents.execute(await kit.open(t, 'BTC', 'long', 10, 1000));
    const holder = kit.db.createQueryRunner();
    await holder.connect();
    let entryId: string | undefined;
    try {
      await holder.startTransaction();
      await holder.query(`SELECT 1 FROM exchange.protocol_state WHERE id = 1 FOR UPDATE`);
      const waiting = inTransaction(kit.db, (sql) => lockPool(sql));
      await waitingForLock('protocol_state');
      // The holder queues a payout (as a close does under the lock) and commits.
      const [row] = await holder.query(
        `INSERT INTO exchange.payout_queue (wallet, position_id, original_micro, remaining_micro, created_at) VALUES ($1, $2, 1, 1, now()) RETURNING id`,
        [t.wallet, opened.opened!.positionId],
      );
      entryId = (row as { id: string }).id;
      await holder.query(`UPDATE exchange.protocol_state SET updated_at = now() WHERE id = 1`);
      await holder.commitTransaction();
      expect((await waiting).queueNotEmpty).toBe(true);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
      if (entryId) await kit.db.query(`DELETE FROM exchange.payout_queue WHERE id = $1`, [entryId]);
    }
  });

  it('chooses the entries to pay under the protocol lock: funds that arrive while it waits pay further entries, first in first out', async () => {
    const [w1, w2, x, y] = [
      await kit.trader(1000),
      await kit.trader(1000),
      await kit.trader(1000),
      await kit.trader(2500),
    ];
    const open = async (t: typeof w1, side: 'long' | 'short', margin: number, leverage: number) =>
      (await kit.intents.execute(await kit.open(t, 'BTC', side, margin, leverage))).opened!.positionId;
    const [p1, p2, px, py] = [
      await open(w1, 'long', 100, 100),
      await open(w2, 'long', 100, 100),
      await open(x, 'short', 1000, 10),
      await open(y, 'short', 2000, 10),
    ];
    await kit.setPrice('BTC', '101000');
    expect((await kit.protocol())['lp_micro']).toBe(0n);
    // Two wins queued whole (the LP is empty), about 88 USDC each with their fees; then a 50 USDC loss parked.
    for (const [t, id] of [
      [w1, p1],
      [w2, p2],
    ] as const)
      await kit.intents.execute(await kit.close(t, [id]));
    await kit.setPrice('BTC', '100500');
    expect((await kit.intents.execute(await kit.close(x, [px]))).closed![0]).toMatchObject({ pnlUsd: '-50' });
    await kit.setPrice('BTC', '101000');
    const owed = async () =>
      (await kit.db.query(
        `SELECT id, wallet, remaining_micro + fee_remaining_micro AS owed FROM exchange.payout_queue WHERE paid_at IS NULL ORDER BY id`,
      )) as Array<{ wallet: string; owed: string }>;
    const entries = await owed();
    expect(entries.map((e) => e.wallet)).toEqual([w1.wallet, w2.wallet]);
    const total = entries.reduce((s, e) => s + BigInt(e.owed), 0n);
    expect((await kit.protocol())['parked_micro']).toBe(usdc(50));

    // A close of y (a 200 USDC loss) holds the protocol lock while the harvest starts: the harvest's
    // unlocked look sees 50 USDC, which reaches only the first entry.
    let locked!: () => void;
    const hasLock = new Promise<void>((r) => (locked = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const closing = kit.batchHolding([await kit.close(y, [py])], async () => {
      locked();
      await gate;
    });
    await hasLock;
    const harvesting = kit.harvest.harvest();
    await waitingForLock('protocol_state');
    release();
    expect((await closing)[0]!.closed![0]).toMatchObject({ outcome: 'closed', pnlUsd: '-200' });
    const report = await harvesting;

    expect(report).toMatchObject({ queueCleared: true, entriesPaid: 2, paidMicro: total });
    expect(await owed()).toEqual([]);
    for (const w of [w1, w2]) expect((await kit.account(w.wallet))['queued_micro']).toBe(0n);
    expect(await kit.protocol()).toMatchObject({ parked_micro: 0n, lp_micro: usdc(250) - total });
  });

  it('with nobody staking, the LP above the cap moves to the staking reserve, which the first stakers receive', async () => {
    await kit.setPrice('BTC', '100000');
    const loser = await kit.trader(1000);
    const id = (await kit.intents.execute(await kit.open(loser, 'BTC', 'short', 500, 50))).opened!.positionId;
    await kit.setPrice('BTC', '101000');
    expect((await kit.intents.execute(await kit.close(loser, [id]))).closed![0]).toMatchObject({
      outcome: 'closed',
      pnlUsd: '-250',
    });
    const before = await kit.protocol();
    expect(before['lp_micro']).toBeGreaterThan(usdc(100));
    expect((await kit.db.query(`SELECT 1 FROM exchange.accounts WHERE staked_micro > 0`)).length).toBe(0);

    const first = await kit.harvest.harvest();
    expect(first).toMatchObject({ lpSweptMicro: before['lp_micro']! - usdc(100), sweptToStakersMicro: 0n });
    expect(await kit.protocol()).toMatchObject({
      lp_micro: usdc(100),
      staking_reserve_micro: before['lp_micro']! - usdc(100),
    });
    expect((await kit.harvest.harvest()).lpSweptMicro).toBe(0n); // the LP stays at the cap

    // The loser stakes the PAPER the loss minted (an owner action signed by the wallet); the next harvest pays the reserve.
    const paper = (await kit.account(loser.wallet))['paper_micro']!;
    expect(paper).toBe(usdc(250) * 100n);
    expect(
      await kit.ownerActions.execute(await kit.ownerAction(loser, ['stake', loser.wallet, { amountMicro: paper }])),
    ).toMatchObject({ status: 'executed' });
    const reserve = (await kit.protocol())['staking_reserve_micro']!;
    const fees = (await kit.protocol())['fees_pending_micro']!;
    const second = await kit.harvest.harvest();
    expect(second).toMatchObject({ lpSweptMicro: 0n, sweptToStakersMicro: reserve, feesToStakersMicro: fees });
    expect(await kit.protocol()).toMatchObject({
      lp_micro: usdc(100),
      staking_reserve_micro: 0n,
      swept_to_stakers_micro: before['swept_to_stakers_micro']! + reserve,
    });
    expect((await kit.account(loser.wallet))['staking_rewards_micro']).toBe(reserve + fees);
  });
});
