import { bustPrice, marketConfig, usdc } from '@paper/exchange';
import { ExchangeTestKit } from '../testing/exchange-test-kit';
import { LiquidationListener } from './liquidation.listener';
import type { MarkRange } from './liquidation.service';

describe('liquidations (PostgreSQL + Redis)', () => {
  let kit: ExchangeTestKit;

  beforeAll(async () => {
    kit = await ExchangeTestKit.start({ LIQUIDATION_BATCH: '4' });
  });

  afterAll(async () => {
    await kit?.stop();
  });

  afterEach(async () => {
    expect(await kit.ledgerMismatches()).toEqual([]);
  });

  it('liquidates every position whose bust price the mark reached, in batches, and nothing else', async () => {
    await kit.setPrice('BTC', '100000');
    const t = await kit.trader(5000);
    const ids: Record<string, string> = {};
    for (const [name, side, lev] of [
      ['l1000', 'long', 1000],
      ['l500', 'long', 500],
      ['l100', 'long', 100],
      ['s1000', 'short', 1000],
      ['s500', 'short', 500],
    ] as const) {
      for (let i = 0; i < 3; i += 1) {
        const r = await kit.intents.execute(await kit.open(t, 'BTC', side, 100, lev));
        expect(r.status).toBe('executed');
        ids[`${name}-${i}`] = r.opened!.positionId;
      }
    }
    const before = await kit.protocol();
    const bust500 = bustPrice('long', 1_000_000n, 500, marketConfig('BTC').bustBuffer);
    // A drop to the 500x long bust price liquidates the 1000x and 500x longs (6 positions, batches of 4).
    const n = await kit.liquidations.liquidateAt('BTC', bust500);
    expect(n).toBe(6);
    const rows = (await kit.db.query(
      `SELECT id, status, exit_price, pnl_micro, reward_minted_micro FROM exchange.positions WHERE wallet = $1`,
      [t.wallet],
    )) as Array<Record<string, string>>;
    const byId = new Map(rows.map((r) => [r['id'], r]));
    for (const [name, id] of Object.entries(ids)) {
      const row = byId.get(id)!;
      if (name.startsWith('l1000') || name.startsWith('l500')) {
        expect(row).toMatchObject({
          status: 'liquidated',
          exit_price: bust500.toString(),
          pnl_micro: String(-usdc(100)),
          reward_minted_micro: String(usdc(100) * 100n),
        });
      } else {
        expect(row['status']).toBe('open');
      }
    }
    expect((await kit.protocol())['lp_micro']).toBe(before['lp_micro']! + usdc(600));
    expect(await kit.account(t.wallet)).toMatchObject({ locked_micro: usdc(900), paper_micro: usdc(600) * 100n });
    expect(await kit.liquidations.liquidateAt('BTC', bust500)).toBe(0);

    const shortBust = bustPrice('short', 1_000_000n, 1000, marketConfig('BTC').bustBuffer);
    expect(await kit.liquidations.liquidateAt('BTC', shortBust)).toBe(3);
    const [oi] = await kit.db.query(`SELECT long_oi_micro, short_oi_micro FROM exchange.markets WHERE market = 'BTC'`);
    expect(oi).toEqual({ long_oi_micro: String(usdc(3 * 10_000)), short_oi_micro: String(usdc(3 * 50_000)) });
  });

  it('parks liquidated margin while the payout queue is not empty', async () => {
    await kit.setPrice('ETH', '3000');
    const winner = await kit.trader(2000);
    const loser = await kit.trader(100);
    const w = await kit.intents.execute(await kit.open(winner, 'ETH', 'long', 1000, 100));
    const l = await kit.intents.execute(await kit.open(loser, 'ETH', 'short', 100, 1000));
    await kit.setPrice('ETH', '3100');
    const win = await kit.intents.execute(await kit.close(winner, [w.opened!.positionId]));
    expect(Number(win.closed![0]!.queuedUsd)).toBeGreaterThan(0);
    const before = await kit.protocol();
    expect(await kit.liquidations.liquidateAt('ETH', 310_000n)).toBe(1);
    expect((await kit.protocol())['parked_micro']).toBe(before['parked_micro']! + usdc(100));
    expect((await kit.protocol())['lp_micro']).toBe(before['lp_micro']);
    const [pos] = await kit.db.query(`SELECT status FROM exchange.positions WHERE id = $1`, [l.opened!.positionId]);
    expect(pos.status).toBe('liquidated');
  });

  it('liquidates longs at the low and shorts at the high of a mark range, each recorded at its own mark', async () => {
    await kit.setPrice('BTC', '100000');
    const t = await kit.trader(1000);
    const long = (await kit.intents.execute(await kit.open(t, 'BTC', 'long', 100, 100))).opened!;
    const short = (await kit.intents.execute(await kit.open(t, 'BTC', 'short', 100, 100))).opened!;
    expect([long.bustPrice, short.bustPrice]).toEqual(['99047.1', '100952']);
    const rows = () =>
      kit.db.query(`SELECT id, status, exit_price FROM exchange.positions WHERE id = ANY($1::bigint[]) ORDER BY id`, [
        [long.positionId, short.positionId],
      ]);
    // The low reaches the long's bust price, the high does not reach the short's.
    await kit.liquidations.liquidateRange('BTC', { low: 990_400n, high: 1_000_000n });
    expect(await rows()).toEqual([
      { id: long.positionId, status: 'liquidated', exit_price: '990400' },
      { id: short.positionId, status: 'open', exit_price: null },
    ]);
    await kit.liquidations.liquidateRange('BTC', { low: 1_000_000n, high: 1_009_600n });
    expect((await rows())[1]).toEqual({ id: short.positionId, status: 'liquidated', exit_price: '1009600' });
  });

  it('a spike through a bust price that reverts while a pass runs is still liquidated (listener and service together)', async () => {
    await kit.setPrice('BTC', '100000');
    const t = await kit.trader(1000);
    const long = (await kit.intents.execute(await kit.open(t, 'BTC', 'long', 100, 100))).opened!;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const passes: MarkRange[] = [];
    const service = {
      liquidateRange: async (market: 'BTC' | 'ETH', marks: MarkRange) => {
        passes.push(marks);
        if (passes.length === 1) await gate; // the first pass is slow
        return kit.liquidations.liquidateRange(market, marks);
      },
    };
    const listener = new LiquidationListener(kit.config, kit.redis, service as never);
    await (listener as unknown as { lease: { tryHold(): Promise<boolean> } }).lease.tryHold();
    try {
      const tick = (mid: bigint) =>
        listener.onTick({ market: 'BTC', bid: String(mid), ask: String(mid), mid: String(mid), ts: Date.now() });
      tick(1_000_000n);
      tick(990_400n); // through the bust price (990,471) ...
      tick(1_000_000n); // ... and back before the slow pass ended
      release();
      await listener.idle();
    } finally {
      await listener.beforeApplicationShutdown();
    }
    expect(passes).toEqual([
      { low: 1_000_000n, high: 1_000_000n },
      { low: 990_400n, high: 1_000_000n },
    ]);
    const [row] = await kit.db.query(`SELECT status, exit_price FROM exchange.positions WHERE id = $1`, [
      long.positionId,
    ]);
    expect(row).toEqual({ status: 'liquidated', exit_price: '990400' });
  });

  it('never liquidates a position twice when two liquidators race', async () => {
    await kit.setPrice('ETH', '3000');
    const t = await kit.trader(2000);
    for (let i = 0; i < 10; i += 1) await kit.intents.execute(await kit.open(t, 'ETH', 'long', 100, 1000));
    const counts = await Promise.all([
      kit.liquidations.liquidateAt('ETH', 299_000n),
      kit.liquidations.liquidateAt('ETH', 299_000n),
    ]);
    expect(counts[0]! + counts[1]!).toBe(10);
    const [row] = await kit.db.query(
      `SELECT count(*)::int AS n FROM exchange.ledger_entries WHERE reason = 'liquidation' AND owner = $1`,
      [t.wallet],
    );
    expect(row.n).toBe(10);
  });
});
