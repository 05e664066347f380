import { DEFAULT_PROTOCOL_RULES, type ProtocolRules } from '@paper/contracts';
import { markets as marketsData } from '../testing/tool-fixtures';
import type { MarketsData } from '../tool-api/tool-data';
import { marketStatusAlerts, marketStatusChanges } from './market-status.rule';
import { addSupplySample, evaluateMintRate, mintedLastHourMicro } from './mint-rate.rule';

const MIN = 60_000;
const rules = (patch: Partial<ProtocolRules>): ProtocolRules => ({
  ...(structuredClone(DEFAULT_PROTOCOL_RULES) as ProtocolRules),
  ...patch,
});

const markets = (
  btc: { open: boolean; status: 'open' | 'paused' | 'close-only' },
  tradingEnabled = true,
): MarketsData => marketsData({ BTC: btc }, tradingEnabled);

describe('market status', () => {
  it('records the first observation without a change, then reports changes', () => {
    const first = marketStatusChanges(undefined, markets({ open: true, status: 'open' }));
    expect(first.changes).toEqual([]);
    const paused = marketStatusChanges(
      first.statuses,
      markets({ open: false, status: 'close-only' }),
      first.transitions,
    );
    expect(paused.changes).toEqual([{ market: 'BTC', from: 'open', to: 'close-only', seq: 1 }]);
    const halted = marketStatusChanges(
      paused.statuses,
      markets({ open: false, status: 'close-only' }, false),
      paused.transitions,
    );
    expect(halted.changes).toEqual([
      { market: 'BTC', from: 'close-only', to: 'paused', seq: 2 },
      { market: 'ETH', from: 'open', to: 'paused', seq: 1 },
    ]);
    expect(halted.transitions).toEqual({ BTC: 2, ETH: 1 });
  });

  it('names a transition the same way whenever it is observed from the same state (no observation time in the key)', () => {
    const r = rules({ marketStatus: { enabled: true, markets: ['BTC'] } });
    const observe = (at: string) => {
      const change = marketStatusChanges({ BTC: 'open', ETH: 'open' }, markets({ open: false, status: 'paused' }), {
        BTC: 4,
      });
      return marketStatusAlerts(r, change.changes, new Date(at)).map((a) => a.episodeKey);
    };
    expect(observe('2030-01-01T00:00:00Z')).toEqual(['BTC:5:open->paused']);
    expect(observe('2030-01-01T00:00:03Z')).toEqual(['BTC:5:open->paused']);
  });

  it('alerts only accounts that follow the market, with a key naming the change', () => {
    const at = new Date('2030-01-01T00:00:00Z');
    const change = [{ market: 'BTC' as const, from: 'open', to: 'paused', seq: 3 }];
    expect(marketStatusAlerts(rules({ marketStatus: { enabled: true, markets: ['ETH'] } }), change, at)).toEqual([]);
    expect(marketStatusAlerts(rules({ marketStatus: { enabled: false, markets: ['BTC'] } }), change, at)).toEqual([]);
    const [alert] = marketStatusAlerts(rules({ marketStatus: { enabled: true, markets: ['BTC'] } }), change, at);
    expect(alert).toMatchObject({
      kind: 'market_status',
      episodeKey: 'BTC:3:open->paused',
      details: { market: 'BTC', to: 'paused' },
    });
  });
});

describe('mint rate', () => {
  it('measures what was minted over the last hour from supply samples', () => {
    const t0 = Date.parse('2030-01-01T00:00:00Z');
    let samples = addSupplySample([], t0, 1000);
    for (let m = 1; m <= 90; m += 1) samples = addSupplySample(samples, t0 + m * MIN, 1000 + m * 10);
    expect(samples.length).toBeLessThanOrEqual(62);
    expect(mintedLastHourMicro(samples, t0 + 91 * MIN, 1910)).toBe(600_000_000n);
    expect(mintedLastHourMicro([], t0, 5)).toBeUndefined();
    expect(mintedLastHourMicro(addSupplySample([], t0, 1000), t0 + MIN, 1005)).toBe(5_000_000n);
  });

  it('fires once above the threshold and re-arms at or below 80% of it', () => {
    const r = rules({ mintRate: { enabled: true, thresholdPerHour: 1000 } });
    const seed = evaluateMintRate(undefined, r, 5_000_000_000n);
    expect(seed.alerts).toEqual([]);
    const calm = evaluateMintRate(seed.state, r, 700_000_000n).state;
    const high = evaluateMintRate(calm, r, 1_500_000_000n);
    expect(high.alerts[0]).toMatchObject({ kind: 'mint_rate', episodeKey: '2', details: { mintedLastHour: '1500' } });
    expect(evaluateMintRate(high.state, r, 1_200_000_000n).alerts).toEqual([]);
    expect(evaluateMintRate(high.state, r, 800_000_000n).state.phase).toBe('armed');
  });
});
