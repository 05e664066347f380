import { DEFAULT_PROTOCOL_RULES, type ProtocolRules } from '@paper/contracts';
import { withPollerKit } from '../testing/poller-test-kit';
import { markets as marketsData, protocolStats } from '../testing/tool-fixtures';

const markets = (btc: { open: boolean; status: 'open' | 'paused' | 'close-only' }) => marketsData({ BTC: btc });

describe('protocol poll cycles (PostgreSQL + Redis, tool API stand-in)', () => {
  const t = withPollerKit();

  const rules = async (accountId: string, patch: Partial<ProtocolRules>) =>
    t.kit.query(`INSERT INTO alerts.protocol_rules (account_id, rules) VALUES ($1, $2)`, [
      accountId,
      JSON.stringify({ ...structuredClone(DEFAULT_PROTOCOL_RULES), ...patch }),
    ]);

  it('makes no calls while no account has a protocol rule on', async () => {
    await rules(await t.kit.account(), {});
    t.api.calls.length = 0;
    expect(await t.kit.poller().protocol.run()).toMatchObject({ accounts: 0, marketsOk: null, statsOk: null });
    expect(t.api.calls).toEqual([]);
  });

  it('alerts followers of a market once per status change, and the mint rate once per episode', async () => {
    const follower = await t.kit.account();
    const other = await t.kit.account();
    await t.kit.channel(follower);
    await rules(follower, {
      marketStatus: { enabled: true, markets: ['BTC'] },
      mintRate: { enabled: true, thresholdPerHour: 1000 },
    });
    await rules(other, { marketStatus: { enabled: true, markets: ['ETH'] } });
    let supply = 10_000;
    t.api.data['get_markets'] = markets({ open: true, status: 'open' });
    t.api.data['get_protocol_stats'] = () => protocolStats({ paperSupply: supply });
    const p = t.kit.poller();
    expect(await p.protocol.run()).toMatchObject({ alerts: 0, marketsOk: true, statsOk: true });
    t.api.data['get_markets'] = markets({ open: false, status: 'close-only' });
    supply += 1500;
    expect(await p.protocol.run()).toMatchObject({ alerts: 2 });
    expect(await t.kit.poller().protocol.run()).toMatchObject({ alerts: 0 });
    supply += 10;
    expect(await p.protocol.run()).toMatchObject({ alerts: 0 });
    const rows = await t.kit.query<{
      account_id: string;
      kind: string;
      details: Record<string, unknown>;
      watch_id: string | null;
      wallet: string | null;
    }>(`SELECT account_id, kind, details, watch_id, wallet FROM alerts.alerts ORDER BY kind`);
    expect(rows).toEqual([
      {
        account_id: follower,
        kind: 'market_status',
        details: { market: 'BTC', from: 'open', to: 'close-only' },
        watch_id: null,
        wallet: null,
      },
      {
        account_id: follower,
        kind: 'mint_rate',
        details: { mintedLastHour: '1500', thresholdPerHour: 1000 },
        watch_id: null,
        wallet: null,
      },
    ]);
    expect(await t.kit.query(`SELECT 1 FROM alerts.deliveries`)).toHaveLength(2);
  });
});
