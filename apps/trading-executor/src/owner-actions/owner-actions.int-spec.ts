import { OWNER_ACTIONS_QUEUE, type SignedOwnerActionPayload } from '@paper/contracts';
import { microToUsdc, usdc, usdcToMicro } from '@paper/exchange';
import { newOwnerAction } from '@paper/exchange-signing';
import { QueueRegistry } from '@paper/nest-infra';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ExchangeTestKit, type Trader } from '../testing/exchange-test-kit';
import { OwnerActionProcessor } from './owner-action.processor';
import { OwnerActionSubmitter } from './owner-action.submitter';

describe('owner actions: withdraw, stake, unstake, claim (PostgreSQL + Redis)', () => {
  let kit: ExchangeTestKit;

  beforeAll(async () => {
    kit = await ExchangeTestKit.start();
    await kit.setPrice('BTC', '100000');
  });

  afterAll(async () => {
    await kit?.stop();
  });

  afterEach(async () => {
    expect(await kit.ledgerMismatches()).toEqual([]);
  });

  const run = async (t: Trader, ...args: Parameters<typeof newOwnerAction>) =>
    kit.ownerActions.execute(await kit.ownerAction(t, args));

  it('withdraws free USDC to the wallet itself: free balance down, chain balance up, booked to withdrawals', async () => {
    const t = await kit.trader(100);
    expect((await kit.chain(t.wallet)).usdcMicro).toBe(0n);
    const result = await run(t, 'withdraw', t.wallet, { amountMicro: usdc(25) });
    expect(result).toMatchObject({
      status: 'executed',
      reason: null,
      kind: 'withdraw',
      amount: '25',
      chainUsdc: '25',
      account: { freeUsd: '75' },
    });
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(75) });
    expect((await kit.chain(t.wallet)).usdcMicro).toBe(usdc(25));
    const lines = await kit.db.query(
      `SELECT owner, bucket, amount_micro, reason FROM exchange.ledger_entries WHERE ref = $1 ORDER BY amount_micro`,
      [`owner:${result.actionId}`],
    );
    expect(lines).toEqual([
      { owner: t.wallet, bucket: 'free', amount_micro: String(-usdc(25)), reason: 'withdrawal' },
      { owner: 'protocol', bucket: 'withdrawals', amount_micro: String(usdc(25)), reason: 'withdrawal' },
    ]);
    const [row] = await kit.db.query(
      `SELECT status, kind, amount_micro, result FROM exchange.owner_actions WHERE id = $1`,
      [result.actionId],
    );
    expect(row).toEqual({ status: 'executed', kind: 'withdraw', amount_micro: String(usdc(25)), result });
  });

  it('runs a redelivered or duplicated action once and returns the stored result', async () => {
    const t = await kit.trader(100);
    const payload = await kit.ownerAction(t, ['withdraw', t.wallet, { amountMicro: usdc(30) }]);
    const results = await Promise.all([kit.ownerActions.execute(payload), kit.ownerActions.execute(payload)]);
    expect(results[1]).toEqual(results[0]);
    expect(await kit.ownerActions.execute(payload)).toEqual(results[0]);
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(70) });
    expect((await kit.chain(t.wallet)).usdcMicro).toBe(usdc(30));
  });

  it('refuses below 10 USDC, above the free balance (queued winnings are not withdrawable) and to another address', async () => {
    const t = await kit.trader(1000);
    // A win the empty LP cannot pay: its payout waits in the queue as "queued".
    const opened = await kit.intents.execute(await kit.open(t, 'BTC', 'long', 100, 100));
    await kit.setPrice('BTC', '101000');
    const closed = await kit.intents.execute(await kit.close(t, [opened.opened!.positionId]));
    await kit.setPrice('BTC', '100000');
    const queued = usdcToMicro(closed.closed![0]!.queuedUsd!);
    expect(queued).toBeGreaterThan(0n);
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(1000), queued_micro: queued });

    expect(await run(t, 'withdraw', t.wallet, { amountMicro: usdc(10) - 1n })).toMatchObject({
      status: 'refused',
      reason: 'withdrawal_below_minimum',
      amount: '0',
    });
    const above = await run(t, 'withdraw', t.wallet, { amountMicro: usdc(1000) + 1n });
    expect(above).toMatchObject({ status: 'refused', reason: 'insufficient_free_balance' });
    expect(above.message).toMatch(/queued winnings/);
    const other = privateKeyToAccount(generatePrivateKey()).address;
    expect(await run(t, 'withdraw', t.wallet, { amountMicro: usdc(10), to: other })).toMatchObject({
      status: 'refused',
      reason: 'withdrawal_not_to_wallet',
    });
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(1000), queued_micro: queued });
    // The whole free balance can go; the queued winnings stay.
    expect(await run(t, 'withdraw', t.wallet, { amountMicro: usdc(1000) })).toMatchObject({
      status: 'executed',
      account: { freeUsd: '0' },
    });
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: 0n, queued_micro: queued });
    const [{ n }] = await kit.db.query(
      `SELECT count(*)::int AS n FROM exchange.owner_actions WHERE wallet = $1 AND status = 'refused'`,
      [t.wallet],
    );
    expect(n).toBe(3);
  });

  it("refuses a session key's signature, any other key's, a tampered id, an expired action and a wallet without an account", async () => {
    const t = await kit.trader(100);
    const bySessionKey = await kit.ownerAction(
      t,
      ['withdraw', t.wallet, { amountMicro: usdc(20) }],
      t.sessionPrivateKey,
    );
    const result = await kit.ownerActions.execute(bySessionKey);
    expect(result).toMatchObject({ status: 'refused', reason: 'session_key_not_allowed' });
    expect(result.message).toMatch(/session key can never withdraw/);
    for (const kind of ['stake', 'unstake'] as const) {
      expect(
        await kit.ownerActions.execute(
          await kit.ownerAction(t, [kind, t.wallet, { amountMicro: 1n }], t.sessionPrivateKey),
        ),
      ).toMatchObject({ reason: 'session_key_not_allowed' });
    }
    expect(
      await kit.ownerActions.execute(await kit.ownerAction(t, ['claim_rewards', t.wallet], t.sessionPrivateKey)),
    ).toMatchObject({ reason: 'session_key_not_allowed' });
    expect(
      await kit.ownerActions.execute(
        await kit.ownerAction(t, ['withdraw', t.wallet, { amountMicro: usdc(20) }], generatePrivateKey()),
      ),
    ).toMatchObject({
      reason: 'bad_signature',
    });

    const valid = await kit.ownerAction(t, ['withdraw', t.wallet, { amountMicro: usdc(20) }]);
    const tampered = {
      ...valid,
      message: { ...valid.message, amountMicro: String(usdc(90)) },
    } as SignedOwnerActionPayload;
    expect(await kit.ownerActions.execute(tampered)).toMatchObject({ reason: 'bad_action_id' });
    expect(
      await kit.db.query(`SELECT 1 FROM exchange.owner_actions WHERE id = $1`, [tampered.actionId.toLowerCase()]),
    ).toHaveLength(0);
    const expired = newOwnerAction('withdraw', t.wallet, { amountMicro: usdc(20), now: Date.now() - 3_600_000 });
    expect(await kit.ownerActions.execute(await kit.ownerAction(t, expired))).toMatchObject({
      reason: 'action_expired',
    });
    expect(await kit.ownerActionAcceptedAt(valid, Date.now() - 3_700_000)).toMatchObject({ reason: 'action_expired' });

    const stranger = generatePrivateKey();
    const strangerWallet = privateKeyToAccount(stranger).address.toLowerCase();
    const noAccount = await kit.ownerAction({ ...t, wallet: strangerWallet, ownerKey: stranger }, [
      'withdraw',
      strangerWallet,
      { amountMicro: usdc(20) },
    ]);
    expect(await kit.ownerActions.execute(noAccount)).toMatchObject({ reason: 'account_not_found' });
    expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(100) });
    expect((await kit.chain(t.wallet)).usdcMicro).toBe(0n);
  });

  it('never overspends when a withdrawal and an open of the same account race', async () => {
    const t = await kit.trader(100);
    const [withdraw, open] = await Promise.all([
      kit.ownerAction(t, ['withdraw', t.wallet, { amountMicro: usdc(60) }]),
      kit.open(t, 'BTC', 'long', 60, 200),
    ]);
    const [w, o] = await Promise.all([kit.ownerActions.execute(withdraw), kit.intents.execute(open)]);
    expect([w.status, o.status].sort()).toEqual(['executed', 'refused']);
    expect([w.reason, o.reason]).toContain(
      w.status === 'refused' ? 'insufficient_free_balance' : 'insufficient_balance',
    );
    const a = await kit.account(t.wallet);
    expect(a['free_micro']).toBe(usdc(40));
    expect(a['free_micro']! + a['locked_micro']! + (await kit.chain(t.wallet)).usdcMicro).toBe(usdc(100));
  });

  it('stakes and unstakes PAPER, and claims the staking rewards a harvest credited', async () => {
    const t = await kit.trader(1000);
    const pays = await kit.trader(1000);
    // A 10 USDC loss mints 1,000 PAPER.
    const id = (await kit.intents.execute(await kit.open(t, 'BTC', 'short', 100, 100))).opened!.positionId;
    await kit.setPrice('BTC', '100100');
    expect((await kit.intents.execute(await kit.close(t, [id]))).closed![0]).toMatchObject({
      pnlUsd: '-10',
      rewardMinted: '1000',
    });
    await kit.setPrice('BTC', '100000');
    expect(await run(t, 'stake', t.wallet, { amountMicro: usdc(600) })).toMatchObject({
      status: 'executed',
      amount: '600',
      account: { paper: '400', paperStaked: '600' },
    });
    expect(await run(t, 'stake', t.wallet, { amountMicro: usdc(401) })).toMatchObject({
      status: 'refused',
      reason: 'insufficient_paper',
    });
    expect(await run(t, 'unstake', t.wallet, { amountMicro: usdc(601) })).toMatchObject({
      status: 'refused',
      reason: 'insufficient_staked',
    });
    expect(await run(t, 'unstake', t.wallet, { amountMicro: usdc(100) })).toMatchObject({
      status: 'executed',
      account: { paper: '500', paperStaked: '500' },
    });
    expect(await kit.account(t.wallet)).toMatchObject({ paper_micro: usdc(500), staked_micro: usdc(500) });
    expect(await run(t, 'claim_rewards', t.wallet)).toMatchObject({ status: 'refused', reason: 'nothing_to_claim' });

    // Win fees are paid to stakers at the next harvest (t is the only staker in this database). First a
    // 200 USDC loss lets a harvest pay the queue an earlier test left, so the next win is paid with its fee.
    const filler = await kit.trader(2000);
    const f = (await kit.intents.execute(await kit.open(filler, 'BTC', 'short', 2000, 10))).opened!.positionId;
    const w = (await kit.intents.execute(await kit.open(pays, 'BTC', 'long', 100, 100))).opened!.positionId;
    await kit.setPrice('BTC', '101000');
    await kit.intents.execute(await kit.close(filler, [f]));
    const first = await kit.harvest.harvest();
    expect(first).toMatchObject({ queueCleared: true });
    await kit.setPrice('BTC', '100100');
    await kit.intents.execute(await kit.close(pays, [w]));
    await kit.setPrice('BTC', '100000');
    const report = await kit.harvest.harvest();
    const credited = (await kit.account(t.wallet))['staking_rewards_micro']!;
    expect(report.feesToStakersMicro).toBeGreaterThan(0n);
    expect(credited).toBe(
      first.sweptToStakersMicro + first.feesToStakersMicro + report.sweptToStakersMicro + report.feesToStakersMicro,
    );
    const free = (await kit.account(t.wallet))['free_micro']!;
    const claim = await run(t, 'claim_rewards', t.wallet);
    expect(claim).toMatchObject({
      status: 'executed',
      amount: microToUsdc(credited),
      account: { unclaimedStakingRewardsUsd: '0' },
    });
    expect(await kit.account(t.wallet)).toMatchObject({
      free_micro: free + credited,
      staking_rewards_micro: credited,
      staking_claimed_micro: credited,
    });
    expect(await run(t, 'claim_rewards', t.wallet)).toMatchObject({ status: 'refused', reason: 'nothing_to_claim' });
  });

  it('runs through the owner-actions queue: the executor worker answers, and a resubmission returns the same result', async () => {
    const registry = new QueueRegistry(kit.config);
    new OwnerActionProcessor(registry, kit.ownerActions, kit.config).onApplicationBootstrap();
    const submitter = new OwnerActionSubmitter(registry, kit.db, kit.ownerActions, kit.config);
    try {
      const t = await kit.trader(100);
      const payload = await kit.ownerAction(t, ['withdraw', t.wallet, { amountMicro: usdc(15) }]);
      const first = await submitter.submit(payload);
      expect(first).toMatchObject({
        status: 'finished',
        result: { status: 'executed', amount: '15', chainUsdc: '15' },
      });
      expect(await submitter.submit(payload)).toEqual(first);
      // The job only woke the executor up; the row holds the action and its result.
      const job = await registry.queue(OWNER_ACTIONS_QUEUE).getJob(payload.actionId.toLowerCase());
      expect(job?.data).toEqual({ actionId: payload.actionId.toLowerCase() });
      const [row] = await kit.db.query(`SELECT status, signature, result FROM exchange.owner_actions WHERE id = $1`, [
        payload.actionId.toLowerCase(),
      ]);
      expect(row).toEqual({
        status: 'executed',
        signature: payload.signature.toLowerCase(),
        result: (first as { result: unknown }).result,
      });
      const bySessionKey = await kit.ownerAction(
        t,
        ['withdraw', t.wallet, { amountMicro: usdc(15) }],
        t.sessionPrivateKey,
      );
      expect(await submitter.submit(bySessionKey)).toMatchObject({
        status: 'finished',
        result: { status: 'refused', reason: 'session_key_not_allowed' },
      });
      expect(await kit.account(t.wallet)).toMatchObject({ free_micro: usdc(85) });
    } finally {
      await submitter.onApplicationShutdown();
      await registry.onApplicationShutdown();
    }
  });
});
