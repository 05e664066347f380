import { type IntentResult, intentResultsChannel, parseIntentResults } from '@paper/contracts';
import { acceptIntents } from '@paper/exchange-data';
import { bustPrice, type Market, MARKETS, marketConfig, usdc, usdcToMicro } from '@paper/exchange';
import { generatePrivateKey } from 'viem/accounts';
import { until } from '../testing/conditions';
import { IntentSubmitter } from '../testing/intent-submitter';
import type { PriceBook } from '../prices/price-book.service';
import { IntentEngine } from './intent-engine.service';
import { ExchangeTestKit, NO_GUARDRAILS } from '../testing/exchange-test-kit';

describe('intent execution (PostgreSQL + Redis)', () => {
  let kit: ExchangeTestKit;

  beforeAll(async () => {
    kit = await ExchangeTestKit.start();
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

  it('opens at the mid: margin locked, position with the formula bust price, open interest raised', async () => {
    const t = await kit.trader(1000);
    const payload = await kit.open(t, 'BTC', 'long', 100, 200);
    const result = await kit.intents.execute(payload);
    expect(result).toMatchObject({
      status: 'executed',
      kind: 'open',
      reason: null,
      opened: { market: 'BTC', side: 'long', marginUsd: '100', leverage: 200, entryPrice: '100000' },
    });
    const [pos] = await kit.db.query(
      `SELECT entry_price, bust_price, status, notional_micro FROM exchange.positions WHERE id = $1`,
      [result.opened!.positionId],
    );
    expect(pos).toMatchObject({ entry_price: '1000000', status: 'open', notional_micro: String(usdc(20_000)) });
    expect(BigInt(pos.bust_price)).toBe(bustPrice('long', 1_000_000n, 200, marketConfig('BTC').bustBuffer));
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(900), locked_micro: usdc(100) });
    const [oi] = await kit.db.query(`SELECT long_oi_micro FROM exchange.markets WHERE market = 'BTC'`);
    expect(BigInt(oi.long_oi_micro)).toBeGreaterThanOrEqual(usdc(20_000));
    const [row] = await kit.db.query(`SELECT status, result FROM exchange.intents WHERE id = $1`, [
      payload.intentId.toLowerCase(),
    ]);
    expect(row.status).toBe('executed');
    expect(row.result).toEqual(result);
  });

  it("publishes each committed batch's results on the intent-results channel, one message per batch", async () => {
    const t = await kit.trader(1000);
    const subscriber = kit.redis.duplicate();
    const messages: IntentResult[][] = [];
    subscriber.on('message', (_channel: string, message: string) => messages.push(parseIntentResults(message)));
    await subscriber.subscribe(intentResultsChannel(kit.config.REDIS_PREFIX));
    try {
      const payloads = [await kit.open(t, 'BTC', 'long', 10, 50), await kit.open(t, 'ETH', 'short', 10, 50)];
      await acceptIntents(kit.db, payloads);
      kit.engine.pump();
      await kit.engine.idle();
      await until(
        async () => messages.flat().length,
        (n) => n >= 2,
      );
      const stored = await kit.db.query(`SELECT result FROM exchange.intents WHERE id = ANY($1) ORDER BY created_at`, [
        payloads.map((p) => p.intentId.toLowerCase()),
      ]);
      expect(messages).toEqual([stored.map((r: { result: IntentResult }) => r.result)]);
    } finally {
      await subscriber.quit();
    }
  });

  it('returns the stored result for a resubmitted intent and never opens twice', async () => {
    const t = await kit.trader(1000);
    const payload = await kit.open(t, 'ETH', 'short', 50, 300);
    const first = await kit.intents.execute(payload);
    const again = await Promise.all([kit.intents.execute(payload), kit.intents.execute(payload)]);
    expect(again).toEqual([first, first]);
    const [{ n }] = await kit.db.query(`SELECT count(*)::int AS n FROM exchange.positions WHERE wallet = $1`, [
      t.wallet,
    ]);
    expect(n).toBe(1);
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(950), locked_micro: usdc(50) });
  });

  it('refuses one of two concurrent opens that together exceed the balance', async () => {
    const t = await kit.trader(100);
    const [a, b] = await Promise.all([kit.open(t, 'BTC', 'long', 60, 200), kit.open(t, 'BTC', 'short', 60, 200)]);
    const results = await Promise.all([kit.intents.execute(a), kit.intents.execute(b)]);
    expect(results.map((r) => r.status).sort()).toEqual(['executed', 'refused']);
    expect(results.find((r) => r.status === 'refused')?.reason).toBe('insufficient_balance');
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(40), locked_micro: usdc(60) });
  });

  it('records refusals with a reason code and a message, without touching balances', async () => {
    const t = await kit.trader(1000, { ...NO_GUARDRAILS, maxLeverage: 100 });
    const cases: Array<[() => Promise<IntentResult>, string, 'refused' | 'expired']> = [
      [
        () => kit.open(t, 'BTC', 'long', 100, 200).then((p) => kit.intents.execute(p)),
        'guardrail_max_leverage',
        'refused',
      ],
      [
        () => kit.open(t, 'BTC', 'long', 5000, 10).then((p) => kit.intents.execute(p)),
        'insufficient_balance',
        'refused',
      ],
      [
        () => kit.open(t, 'BTC', 'long', 100, 50, { signer: generatePrivateKey() }).then((p) => kit.intents.execute(p)),
        'bad_signature',
        'refused',
      ],
      [
        () =>
          kit
            .open(t, 'BTC', 'long', 100, 50, { expiresAt: BigInt(Math.floor(Date.now() / 1000) + 7200) })
            .then((p) => kit.intents.execute(p)),
        'intent_expiry_too_far',
        'refused',
      ],
      // Past its signed expiry, or accepted more than an hour before it could run: it ends expired.
      [
        () =>
          kit
            .open(t, 'BTC', 'long', 100, 50, { expiresAt: BigInt(Math.floor(Date.now() / 1000) - 1) })
            .then((p) => kit.intents.execute(p)),
        'intent_expired',
        'expired',
      ],
      [
        () => kit.open(t, 'BTC', 'long', 100, 50).then((p) => kit.executeAcceptedAt(p, Date.now() - 3_700_000)),
        'intent_expired',
        'expired',
      ],
    ];
    for (const [run, reason, status] of cases) {
      const result = await run();
      expect(result).toMatchObject({ status, reason });
      expect(result.message.length).toBeGreaterThan(20);
      const [row] = await kit.db.query(`SELECT status, reason, message FROM exchange.intents WHERE id = $1`, [
        result.intentId,
      ]);
      expect(row).toMatchObject({ status, reason });
    }
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(1000), locked_micro: 0n });
  });

  it('refuses with price_unavailable when the latest price is stale', async () => {
    const t = await kit.trader(1000);
    await kit.setPrice('ETH', '3500', Date.now() - kit.config.PRICE_STALE_MS - 1000);
    const result = await kit.intents.execute(await kit.open(t, 'ETH', 'long', 100, 100));
    expect(result).toMatchObject({ status: 'refused', reason: 'price_unavailable' });
  });

  it('waits for a fresh price while the replica starts (PRICE_WARMUP_MS), then refuses without one', async () => {
    const t = await kit.trader(1000);
    const stale = Date.now() - kit.config.PRICE_STALE_MS - 1000;
    // The starting replica reads the book through a counter: it looks at the prices a few times, and waits.
    let reads = 0;
    const book = Object.assign(Object.create(kit.prices) as PriceBook, {
      fresh: (market: Market) => ((reads += 1), kit.prices.fresh(market)),
    });
    const starting = new IntentEngine(kit.db, book, kit.results, { ...kit.config, PRICE_WARMUP_MS: 60_000 });
    const submitter = new IntentSubmitter(kit.db, starting, kit.config);
    try {
      await kit.setPrice('ETH', '3500', stale);
      const pending = submitter.execute(await kit.open(t, 'ETH', 'long', 100, 100));
      await until(
        async () => reads,
        (n) => n >= MARKETS.length * 3,
      );
      const [row] = await kit.db.query(`SELECT status FROM exchange.intents WHERE wallet = $1`, [t.wallet]);
      expect(row).toEqual({ status: 'queued' });
      await kit.setPrice('ETH', '3600');
      expect(await pending).toMatchObject({ status: 'executed', opened: { entryPrice: '3600' } });
    } finally {
      await starting.beforeApplicationShutdown();
      await submitter.close();
    }
    const started = new IntentEngine(kit.db, kit.prices, kit.results, { ...kit.config, PRICE_WARMUP_MS: 1 });
    const late = new IntentSubmitter(kit.db, started, kit.config);
    try {
      await kit.setPrice('ETH', '3500', stale);
      const result = await late.execute(await kit.open(t, 'ETH', 'long', 100, 100));
      expect(result).toMatchObject({ status: 'refused', reason: 'price_unavailable' });
    } finally {
      await started.beforeApplicationShutdown();
      await late.close();
    }
  });

  it('refuses intents of a revoked or unknown session key', async () => {
    const t = await kit.trader(1000);
    await kit.sessionKeys.revoke({ wallet: t.wallet, sessionKey: t.sessionKey });
    expect(await kit.intents.execute(await kit.open(t, 'BTC', 'long', 100, 100))).toMatchObject({
      reason: 'session_key_revoked',
    });
    const stranger = { ...t, sessionPrivateKey: generatePrivateKey() };
    const { privateKeyToAccount } = await import('viem/accounts');
    stranger.sessionKey = privateKeyToAccount(stranger.sessionPrivateKey).address.toLowerCase();
    expect(await kit.intents.execute(await kit.open(stranger, 'BTC', 'long', 100, 100))).toMatchObject({
      reason: 'session_key_unknown',
    });
  });

  it('closes: settles with the win curve, reports already-closed ids and refuses foreign ids', async () => {
    const lp = await kit.trader(5000);
    const loser = await kit.intents.execute(await kit.open(lp, 'BTC', 'short', 1000, 100));
    const t = await kit.trader(1000);
    const opened = await kit.intents.execute(await kit.open(t, 'BTC', 'long', 100, 100));
    await kit.setPrice('BTC', '101000');
    await kit.intents.execute(await kit.close(lp, [loser.opened!.positionId])); // fills the LP with 1000 USDC
    const closed = await kit.intents.execute(await kit.close(t, [opened.opened!.positionId]));
    expect(closed.status).toBe('executed');
    const c = closed.closed![0]!;
    expect(c).toMatchObject({ outcome: 'closed', exitPrice: '101000', queuedUsd: '0' });
    expect(Number(c.pnlUsd)).toBeGreaterThan(0);
    expect(Number(c.pnlUsd)).toBeLessThan(100 * 0.9);
    const acct = await kit.account(t.wallet);
    expect(acct['locked_micro']).toBe(0n);
    expect(acct['free_micro']).toBe(usdc(1000) + BigInt(Math.round(Number(c.pnlUsd) * 1e6)));
    const again = await kit.intents.execute(await kit.close(t, [opened.opened!.positionId]));
    expect(again.closed![0]).toMatchObject({ outcome: 'already_closed' });
    const foreign = await kit.intents.execute(await kit.close(t, [loser.opened!.positionId]));
    expect(foreign).toMatchObject({ status: 'refused', reason: 'position_not_found' });
  });

  it('queues a win the LP cannot pay and pays it at the next harvest from parked losses', async () => {
    const p0 = await kit.protocol();
    const winner = await kit.trader(1000);
    const loser = await kit.trader(1000);
    await kit.setPrice('ETH', '3500');
    const w = await kit.intents.execute(await kit.open(winner, 'ETH', 'long', 500, 100));
    const l = await kit.intents.execute(await kit.open(loser, 'ETH', 'short', 500, 100));
    await kit.setPrice('ETH', '3600');
    const win = await kit.intents.execute(await kit.close(winner, [w.opened!.positionId]));
    const pnl = usdcToMicro(win.closed![0]!.pnlUsd!);
    const fee = usdcToMicro(win.closed![0]!.feeUsd!);
    expect(pnl).toBeGreaterThan(p0['lp_micro']!);
    const queued = usdcToMicro(win.closed![0]!.queuedUsd!);
    expect(queued).toBe(pnl - p0['lp_micro']!);
    expect((await kit.account(winner.wallet))['queued_micro']).toBe(queued);
    // The LP paid all it had to the trader: the whole win fee waits with the queue entry.
    const [entry] = await kit.db.query(
      `SELECT remaining_micro, fee_remaining_micro FROM exchange.payout_queue WHERE position_id = $1`,
      [w.opened!.positionId],
    );
    expect(entry).toEqual({ remaining_micro: String(queued), fee_remaining_micro: String(fee) });
    await kit.intents.execute(await kit.close(loser, [l.opened!.positionId]));
    expect((await kit.protocol())['parked_micro']).toBe(usdc(500));
    const report = await kit.harvest.harvest();
    expect(report).toMatchObject({ paidMicro: queued + fee, feesCollectedMicro: fee, queueCleared: true });
    expect(await kit.account(winner.wallet)).toMatchObject({ queued_micro: 0n, free_micro: usdc(1000) + pnl });
    expect(await kit.protocol()).toMatchObject({
      parked_micro: 0n,
      lp_micro: usdc(500) - queued - fee,
      fees_micro: p0['fees_micro']! + fee,
    });
  });

  it('a close at or past the bust price liquidates: the whole margin, not the smaller win-curve loss', async () => {
    // BTC long at 100,000 (1,000,000 at scale x10), 100x, 100 USDC: bust 99,047.1. At 99,040 the win curve
    // alone would lose 96 USDC; the position is past its bust price, so it loses the whole 100 USDC.
    const t = await kit.trader(1000);
    const opened = await kit.intents.execute(await kit.open(t, 'BTC', 'long', 100, 100));
    expect(opened.opened).toMatchObject({ entryPrice: '100000', bustPrice: '99047.1' });
    await kit.setPrice('BTC', '99040');
    const p0 = await kit.protocol();
    const closed = await kit.intents.execute(await kit.close(t, [opened.opened!.positionId]));
    expect(closed.status).toBe('executed');
    expect(closed.closed![0]).toMatchObject({
      outcome: 'already_liquidated',
      exitPrice: '99040',
      pnlUsd: '-100',
      feeUsd: '0',
      queuedUsd: '0',
      rewardMinted: '10000',
    });
    expect(closed.message).toMatch(/had reached the liquidation price and was liquidated at 99040/);
    const [pos] = await kit.db.query(
      `SELECT status, exit_price, pnl_micro, reward_minted_micro FROM exchange.positions WHERE id = $1`,
      [opened.opened!.positionId],
    );
    expect(pos).toEqual({
      status: 'liquidated',
      exit_price: '990400',
      pnl_micro: String(-usdc(100)),
      reward_minted_micro: String(usdc(10_000)),
    });
    const [ledger] = await kit.db.query(
      `SELECT array_agg(DISTINCT reason) AS reasons FROM exchange.ledger_entries WHERE ref = $1 AND reason <> 'open'`,
      [opened.opened!.positionId],
    );
    expect(ledger.reasons).toEqual(['liquidation']);
    expect(await kit.account(t.wallet)).toMatchObject({
      free_micro: usdc(900),
      locked_micro: 0n,
      paper_micro: usdc(10_000),
      realized_pnl_micro: -usdc(100),
    });
    const p1 = await kit.protocol();
    expect(p1['lp_micro']! + p1['parked_micro']!).toBe(p0['lp_micro']! + p0['parked_micro']! + usdc(100));
  });

  it('cancels a queued intent: accepted, never run, and a cancel claimed with it runs first', async () => {
    const t = await kit.trader(1000);
    const target = await kit.open(t, 'BTC', 'long', 100, 100);
    expect(await acceptIntents(kit.db, [target])).toEqual([{ state: 'accepted', id: target.intentId.toLowerCase() }]);
    const cancel = await kit.intents.execute(await kit.cancel(t, target.intentId));
    expect(cancel).toMatchObject({ status: 'executed', cancelledIntentId: target.intentId.toLowerCase() });
    const late = await kit.intents.execute(target);
    expect(late).toMatchObject({ status: 'cancelled', reason: 'cancelled_by_owner' });
    const [row] = await kit.db.query(`SELECT status, result FROM exchange.intents WHERE id = $1`, [
      target.intentId.toLowerCase(),
    ]);
    expect(row).toEqual({ status: 'cancelled', result: late });
    expect(await kit.account(t.wallet)).toMatchObject({ locked_micro: 0n });
    const twice = await kit.intents.execute(await kit.cancel(t, target.intentId));
    expect(twice).toMatchObject({ status: 'refused', reason: 'intent_not_cancellable' });
  });

  it('an intent whose transaction fails stays queued with nothing of it written, is tried again and executes exactly once', async () => {
    const t = await kit.trader(1000);
    const payload = await kit.open(t, 'BTC', 'long', 100, 100);
    const id = payload.intentId.toLowerCase();
    await kit.db.query(
      `CREATE FUNCTION exchange.crash() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'executor crashed'; END $$`,
    );
    await kit.db.query(
      `CREATE TRIGGER crash BEFORE UPDATE ON exchange.markets FOR EACH ROW EXECUTE FUNCTION exchange.crash()`,
    );
    let running: Promise<IntentResult> | undefined;
    try {
      running = kit.intents.execute(payload);
      const [failed] = await until(
        () => kit.db.query(`SELECT status, attempts, last_error FROM exchange.intents WHERE id = $1`, [id]),
        (rows) => rows[0]?.attempts >= 1,
      );
      expect(failed).toMatchObject({ status: 'queued', last_error: expect.stringMatching(/executor crashed/) });
      expect(await kit.db.query(`SELECT 1 FROM exchange.positions WHERE wallet = $1`, [t.wallet])).toHaveLength(0);
      expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(1000), locked_micro: 0n });
    } finally {
      await kit.db.query(`DROP TRIGGER crash ON exchange.markets`);
      await kit.db.query(`DROP FUNCTION exchange.crash()`);
    }
    const executed = await running!;
    expect(executed.status).toBe('executed');
    expect(await kit.intents.execute(payload)).toEqual(executed);
    expect(await kit.db.query(`SELECT 1 FROM exchange.positions WHERE wallet = $1`, [t.wallet])).toHaveLength(1);
  });

  it('refuses an intent that fails every attempt (execution_failed) and runs the intents claimed with it', async () => {
    const t = await kit.trader(1000);
    const other = await kit.trader(1000);
    const doomed = await kit.open(t, 'ETH', 'long', 100, 100);
    const fine = await kit.open(other, 'BTC', 'long', 100, 100);
    // Every insert of a position of t's wallet fails: t's open can never run, other's can.
    await kit.db.query(
      `CREATE FUNCTION exchange.refuse_wallet() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.wallet = '${t.wallet}' THEN RAISE EXCEPTION 'cannot store'; END IF; RETURN NEW; END $$`,
    );
    await kit.db.query(
      `CREATE TRIGGER refuse_wallet BEFORE INSERT ON exchange.positions FOR EACH ROW EXECUTE FUNCTION exchange.refuse_wallet()`,
    );
    try {
      await acceptIntents(kit.db, [doomed, fine]);
      const [a, b] = await Promise.all([kit.intents.execute(doomed), kit.intents.execute(fine)]);
      expect(b).toMatchObject({ status: 'executed', kind: 'open' });
      expect(a).toMatchObject({ status: 'refused', reason: 'execution_failed' });
      const [row] = await kit.db.query(`SELECT status, attempts, last_error FROM exchange.intents WHERE id = $1`, [
        doomed.intentId.toLowerCase(),
      ]);
      expect(row).toEqual({ status: 'refused', attempts: 3, last_error: expect.stringMatching(/cannot store/) });
      expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(1000), locked_micro: 0n });
    } finally {
      await kit.db.query(`DROP TRIGGER refuse_wallet ON exchange.positions`);
      await kit.db.query(`DROP FUNCTION exchange.refuse_wallet()`);
    }
  });
});
