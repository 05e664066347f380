import { acceptIntents } from '@paper/exchange-data';
import { usdc } from '@paper/exchange';
import { creditChainBalance, transferChainBalance } from '@paper/exchange-data';
import { depositProxyAddress } from '@paper/exchange-signing';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { ExchangeTestKit } from '../testing/exchange-test-kit';

describe('maintenance jobs (PostgreSQL + Redis)', () => {
  let kit: ExchangeTestKit;

  beforeAll(async () => {
    kit = await ExchangeTestKit.start({ LP_CAP_USDC: '1000' });
    await kit.setPrice('BTC', '100000');
    await kit.setPrice('ETH', '3500');
  });

  afterAll(async () => {
    await kit?.stop();
  });

  afterEach(async () => {
    expect(await kit.ledgerMismatches()).toEqual([]);
  });

  it('sweeps deposits: refuses under 10 USDC once, takes the activation fee from the first deposit only', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const proxy = depositProxyAddress(wallet);
    await kit.db.query(`INSERT INTO exchange.accounts (wallet, deposit_address) VALUES ($1, $2)`, [wallet, proxy]);
    await creditChainBalance(kit.db, wallet, 'USDC', usdc(100));
    await transferChainBalance(kit.db, wallet, proxy, 'USDC', usdc(5));
    expect(await kit.deposits.sweep()).toEqual([
      expect.objectContaining({ wallet, status: 'refused', reason: 'deposit_below_minimum' }),
    ]);
    expect(await kit.deposits.sweep(wallet)).toEqual([]);
    await transferChainBalance(kit.db, wallet, proxy, 'USDC', usdc(10));
    expect(await kit.deposits.sweep(wallet)).toEqual([
      expect.objectContaining({ status: 'credited', amountMicro: usdc(15), feeMicro: usdc(1) }),
    ]);
    await transferChainBalance(kit.db, wallet, proxy, 'USDC', usdc(20));
    expect(await kit.deposits.sweep(wallet)).toEqual([
      expect.objectContaining({ status: 'credited', amountMicro: usdc(20), feeMicro: 0n }),
    ]);
    expect(await kit.account(wallet)).toMatchObject({ free_micro: usdc(34) });
    expect((await kit.chain(proxy)).usdcMicro).toBe(0n);
    expect((await kit.chain(wallet)).usdcMicro).toBe(usdc(65));
    const deposits = await kit.db.query(
      `SELECT status, amount_micro, fee_micro FROM exchange.deposits WHERE wallet = $1 ORDER BY id`,
      [wallet],
    );
    expect(deposits).toEqual([
      { status: 'refused', amount_micro: String(usdc(5)), fee_micro: '0' },
      { status: 'credited', amount_micro: String(usdc(15)), fee_micro: String(usdc(1)) },
      { status: 'credited', amount_micro: String(usdc(20)), fee_micro: '0' },
    ]);
  });

  it('accepts a first deposit of exactly 10 USDC and credits 9 USDC (the activation fee comes out of it)', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const proxy = depositProxyAddress(wallet);
    await kit.db.query(`INSERT INTO exchange.accounts (wallet, deposit_address) VALUES ($1, $2)`, [wallet, proxy]);
    await creditChainBalance(kit.db, wallet, 'USDC', usdc(10));
    await transferChainBalance(kit.db, wallet, proxy, 'USDC', usdc(10));
    expect(await kit.deposits.sweep(wallet)).toEqual([
      expect.objectContaining({ status: 'credited', amountMicro: usdc(10), feeMicro: usdc(1) }),
    ]);
    expect(await kit.account(wallet)).toMatchObject({ free_micro: usdc(9) });
  });

  it('harvest sweeps the LP above the cap and the pending win fees to stakers, pro rata to staked PAPER', async () => {
    const [a, b, loser, winner] = [
      await kit.trader(10),
      await kit.trader(10),
      await kit.trader(3000),
      await kit.trader(1000),
    ];
    await kit.db.query(`UPDATE exchange.accounts SET paper_micro = 0, staked_micro = $2 WHERE wallet = $1`, [
      a.wallet,
      usdc(1000),
    ]);
    await kit.db.query(`UPDATE exchange.accounts SET paper_micro = 0, staked_micro = $2 WHERE wallet = $1`, [
      b.wallet,
      usdc(3000),
    ]);
    const l = await kit.intents.execute(await kit.open(loser, 'BTC', 'short', 2500, 50));
    const w = await kit.intents.execute(await kit.open(winner, 'BTC', 'long', 100, 100));
    await kit.setPrice('BTC', '101000');
    await kit.intents.execute(await kit.close(loser, [l.opened!.positionId]));
    await kit.intents.execute(await kit.close(winner, [w.opened!.positionId]));
    const before = await kit.protocol();
    expect(before['fees_pending_micro']).toBeGreaterThan(0n);
    const excess = before['lp_micro']! - usdc(1000);
    expect(excess).toBeGreaterThan(0n);
    const report = await kit.harvest.harvest();
    expect(report.lpSweptMicro).toBe(excess);
    expect(report.sweptToStakersMicro).toBeGreaterThan(excess - 4n);
    const after = await kit.protocol();
    expect(after['lp_micro']).toBe(usdc(1000));
    expect(after['staking_reserve_micro']).toBe(excess - report.sweptToStakersMicro);
    expect(after['fees_pending_micro']).toBeLessThan(4n);
    const ra = (await kit.account(a.wallet))['staking_rewards_micro']!;
    const rb = (await kit.account(b.wallet))['staking_rewards_micro']!;
    expect(ra + rb).toBe(report.sweptToStakersMicro + report.feesToStakersMicro);
    expect(rb / 3n - ra).toBeLessThanOrEqual(1n);
  });

  it('snapshots equity with unrealized PnL at the mark and rolls up daily stats', async () => {
    await kit.setPrice('ETH', '3500');
    const t = await kit.trader(2000);
    expect(await kit.intents.execute(await kit.open(t, 'ETH', 'long', 1000, 10))).toMatchObject({ status: 'executed' });
    await kit.setPrice('ETH', '3150'); // -10% at 10x: the whole margin
    expect(await kit.snapshots.snapshot()).toBeGreaterThan(0);
    const [snap] = await kit.db.query(
      `SELECT equity_micro, unrealized_pnl_micro FROM exchange.equity_snapshots WHERE wallet = $1`,
      [t.wallet],
    );
    expect(snap).toEqual({ equity_micro: String(usdc(1000)), unrealized_pnl_micro: String(-usdc(1000)) });
    await kit.snapshots.snapshot();
    const [{ n }] = await kit.db.query(`SELECT count(*)::int AS n FROM exchange.equity_snapshots WHERE wallet = $1`, [
      t.wallet,
    ]);
    expect(n).toBe(1);
    const days = await kit.dailyStats.rollup();
    const [stats] = await kit.db.query(
      `SELECT volume_micro, trades, users, liquidations FROM exchange.daily_stats WHERE day = $1`,
      [days.at(-1)],
    );
    const [{ v }] = await kit.db.query(`SELECT sum(notional_micro) AS v FROM exchange.positions`);
    expect(stats.volume_micro).toBe(v);
    expect(stats.trades).toBeGreaterThanOrEqual(5);
    const [p] = await kit.db.query(`SELECT lifetime_volume_micro FROM exchange.protocol_state`);
    expect(p.lifetime_volume_micro).toBe(v);
  });

  it('values an open position past its bust price at -margin in the equity snapshot, not at the smaller win-curve loss', async () => {
    await kit.setPrice('BTC', '100000');
    const t = await kit.trader(1000);
    expect(await kit.intents.execute(await kit.open(t, 'BTC', 'long', 100, 100))).toMatchObject({
      opened: { bustPrice: '99047.1' },
    });
    await kit.setPrice('BTC', '99040'); // past the bust price; the win curve alone says -96 USDC
    try {
      await kit.snapshots.snapshot();
      const [snap] = await kit.db.query(
        `SELECT equity_micro, unrealized_pnl_micro FROM exchange.equity_snapshots WHERE wallet = $1`,
        [t.wallet],
      );
      expect(snap).toEqual({ equity_micro: String(usdc(900)), unrealized_pnl_micro: String(-usdc(100)) });
    } finally {
      await kit.setPrice('BTC', '100000');
    }
  });

  it('expires accepted intents that waited for more than an hour or past their signed expiry', async () => {
    const t = await kit.trader(100);
    const stale = await kit.open(t, 'BTC', 'long', 10, 1000);
    const lapsed = await kit.open(t, 'BTC', 'long', 10, 1000, { expiresAt: BigInt(Math.floor(Date.now() / 1000) - 1) });
    const fresh = await kit.open(t, 'BTC', 'long', 10, 1000);
    await acceptIntents(kit.db, [stale, lapsed, fresh]);
    await kit.db.query(`UPDATE exchange.intents SET created_at = now() - interval '3700 seconds' WHERE id = $1`, [
      stale.intentId.toLowerCase(),
    ]);
    expect(await kit.expiry.expireQueued()).toBe(2);
    const rows = await Promise.all(
      [stale, lapsed, fresh].map(
        async (p) =>
          (
            await kit.db.query(`SELECT status, reason, result FROM exchange.intents WHERE id = $1`, [
              p.intentId.toLowerCase(),
            ])
          )[0],
      ),
    );
    expect(rows.map((r: { status: string; reason: string | null }) => [r.status, r.reason])).toEqual([
      ['expired', 'intent_expired'],
      ['expired', 'intent_expired'],
      ['queued', null],
    ]);
    expect(rows[0].result).toMatchObject({
      intentId: stale.intentId.toLowerCase(),
      kind: 'open',
      wallet: t.wallet,
      status: 'expired',
      reason: 'intent_expired',
    });
    expect(new Date(rows[0].result.executedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await kit.intents.execute(stale)).toMatchObject({ status: 'expired' });
    expect(await kit.intents.execute(fresh)).toMatchObject({ status: 'executed' });
  });
});
