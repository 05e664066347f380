import { ALERTS_DELIVERY_QUEUE, DELIVERIES_DUE_JOB_ID } from '@paper/contracts';
import type { AccountData, TradeEvent } from '../tool-api/tool-data';
import { withPollerKit } from '../testing/poller-test-kit';
import {
  account,
  FIXTURE_WALLET as W,
  markets as marketsData,
  position,
  recentTrades,
  trade as tradeData,
} from '../testing/tool-fixtures';

const markets = (btc: number) => marketsData({ BTC: { markPrice: btc } });
const trade = (type: TradeEvent['type'], id: string) => tradeData(type, id, { time: new Date().toISOString() });

describe('wallet poll cycles (PostgreSQL + Redis, tool API stand-in)', () => {
  const t = withPollerKit();
  let trades: TradeEvent[];
  let acct: AccountData;

  beforeEach(async () => {
    await t.kit.query(`TRUNCATE alerts.accounts, alerts.poll_status CASCADE`);
    trades = [];
    t.api.calls.length = 0;
    acct = account({ wallet: W });
    t.api.data['get_recent_trades'] = () => recentTrades(trades);
    t.api.data['get_account'] = () => acct;
    t.api.data['get_markets'] = markets(100_000);
  });

  const alertsOf = (accountId: string) =>
    t.kit.query<{ kind: string; event_id: string; details: Record<string, unknown> }>(
      `SELECT kind, event_id, details FROM alerts.alerts WHERE account_id = $1 ORDER BY created_at`,
      [accountId],
    );

  it('seeds silently, alerts a trade once with one delivery per active channel, and a restart does not alert again', async () => {
    const accountId = await t.kit.account();
    const active = await t.kit.channel(accountId);
    await t.kit.channel(accountId, 'paused');
    await t.kit.watch(accountId, W, { liquidation: { enabled: true, belowPct: 1 } }, new Date(Date.now() - 60_000));
    const first = t.kit.poller();
    expect(await first.wallets.run()).toMatchObject({ watches: 1, alerts: 0, accountReads: 1 });
    const states = await t.kit.query<{ rule: string }>(`SELECT rule FROM alerts.rule_state ORDER BY rule`);
    expect(states.map((s) => s.rule)).toEqual(['account', 'balance', 'positions', 'rewards', 'session_key']);

    trades = [trade('open', '11')];
    acct = account({ wallet: W, positions: [position('11', { bustPrice: 95_000, liquidationDistancePercent: 5 })] });
    expect(await first.wallets.run()).toMatchObject({ alerts: 1, deliveries: 1, accountReads: 1 });
    const [opened] = await alertsOf(accountId);
    expect(opened).toMatchObject({ kind: 'position_opened', details: { positionId: '11' } });
    const [delivery] = await t.kit.query<{ id: string; channel_id: string; status: string }>(
      `SELECT id, channel_id, status FROM alerts.deliveries`,
    );
    expect(delivery).toMatchObject({ channel_id: active, status: 'queued' });
    expect(await t.kit.queues.queue(ALERTS_DELIVERY_QUEUE).getJobState(DELIVERIES_DUE_JOB_ID)).toBe('waiting');

    const restarted = t.kit.poller();
    const report = await restarted.wallets.run();
    expect(report).toMatchObject({ alerts: 0 });
    await t.kit.query(`UPDATE alerts.poll_status SET details = '{}'::jsonb`);
    expect(await restarted.wallets.run()).toMatchObject({ alerts: 0, deliveries: 0 });
    expect(await alertsOf(accountId)).toHaveLength(1);
  });

  it('reads one account per address per cycle, and none when nothing changed', async () => {
    const accountId = await t.kit.account();
    await t.kit.watch(accountId, W);
    await t.kit.watch(await t.kit.account(), W);
    const p = t.kit.poller();
    await p.wallets.run();
    expect(t.api.calls.filter((c) => c.tool === 'get_account')).toHaveLength(1);
    t.api.calls.length = 0;
    expect(await p.wallets.run()).toMatchObject({ accountReads: 0 });
    expect(t.api.calls.map((c) => c.tool)).toEqual(['get_recent_trades']);
  });

  it('fires liquidation risk once per episode; a failed read is unknown, never a recovery', async () => {
    const accountId = await t.kit.account();
    await t.kit.channel(accountId);
    await t.kit.watch(accountId, W, { liquidation: { enabled: true, belowPct: 0.5 } });
    acct = account({
      wallet: W,
      positions: [position('21', { bustPrice: 99_047.6, liquidationDistancePercent: 0.9524 })],
    });
    const p = t.kit.poller();
    await p.wallets.run();
    const step = async (mark: number | Error) => {
      t.api.data['get_markets'] = mark instanceof Error ? mark : markets(mark);
      return p.wallets.run();
    };
    expect(await step(99_400)).toMatchObject({ alerts: 1 });
    expect(await step(new Error('venue down'))).toMatchObject({ alerts: 0 });
    const [positions] = await t.kit.query<{ state: { positions: Record<string, { phase: string }> } }>(
      `SELECT state FROM alerts.rule_state WHERE rule = 'positions'`,
    );
    expect(positions!.state.positions['21']!.phase).toBe('firing');
    expect(await step(99_500)).toMatchObject({ alerts: 0 });
    expect(await step(99_650)).toMatchObject({ alerts: 0 });
    expect(await step(99_400)).toMatchObject({ alerts: 1 });
    const risks = (await alertsOf(accountId)).filter((a) => a.kind === 'liquidation_risk');
    expect(risks.map((r) => r.details['positionId'])).toEqual(['21', '21']);
    expect(new Set(risks.map((r) => r.event_id)).size).toBe(2);
  });

  it('keeps states unknown when the account read fails, and records the failed poll', async () => {
    const accountId = await t.kit.account();
    await t.kit.watch(accountId, W, { balance: { enabled: true, changeUsd: 10 } });
    const p = t.kit.poller();
    await p.wallets.run();
    trades = [trade('close', '31')];
    t.api.data['get_account'] = new Error('exchange down');
    expect(await p.wallets.run()).toMatchObject({ alerts: 1 });
    const [status] = await t.kit.query<{ last_ok: boolean; last_error: string }>(
      `SELECT last_ok, last_error FROM alerts.poll_status WHERE name = 'wallets'`,
    );
    expect(status).toMatchObject({ last_ok: false, last_error: expect.stringContaining('exchange down') });
    const [state] = await t.kit.query<{ state: { status: string } }>(
      `SELECT state FROM alerts.rule_state WHERE rule = 'account'`,
    );
    expect(state!.state.status).toBe('unknown');
    t.api.data['get_account'] = () => account({ wallet: W, freeUsd: 880 });
    expect(await p.wallets.run()).toMatchObject({ alerts: 1 });
    expect((await alertsOf(accountId)).map((a) => a.kind)).toEqual(['position_closed', 'balance_change']);
  });
});
