import { evaluateLiquidationRisk, liquidationDistancePct, type PositionsState } from './liquidation-risk.rule';
import { account, position } from '../testing/tool-fixtures';
import { rules } from './rule-fixtures';

const below1 = rules({ liquidation: { enabled: true, belowPct: 1 } });
const none = new Set<string>();

function step(
  prev: PositionsState | undefined,
  distance: number,
  extra: Partial<Parameters<typeof evaluateLiquidationRisk>[0]> = {},
) {
  const result = evaluateLiquidationRisk({
    prev,
    rules: below1,
    account: account({ positions: [position('7', { liquidationDistancePercent: distance })] }),
    closedIds: none,
    ...extra,
  });
  if (result.status !== 'ok') throw new Error('expected ok');
  return result;
}

describe('liquidation risk', () => {
  it('computes the distance like the tool API and clamps past the bust price', () => {
    expect(liquidationDistancePct('long', 100, 99)).toBeCloseTo(1);
    expect(liquidationDistancePct('short', 100, 101)).toBeCloseTo(1);
    expect(liquidationDistancePct('long', 98, 99)).toBe(0);
    expect(liquidationDistancePct('short', 102, 101)).toBe(0);
  });

  it('alerts once, at once, for a position already below the threshold when the wallet is first seen', () => {
    const seeded = step(undefined, 0.5);
    expect(seeded.alerts).toHaveLength(1);
    expect(seeded.alerts[0]).toMatchObject({
      kind: 'liquidation_risk',
      episodeKey: '7:1',
      details: { distancePct: 0.5 },
    });
    expect(seeded.state.positions['7']).toMatchObject({ phase: 'firing', episode: 1 });
    expect(step(seeded.state, 0.4).alerts).toEqual([]);
    expect(step(undefined, 5).alerts).toEqual([]);
  });

  it('fires once per episode and re-arms only past the 20% margin', () => {
    const seeded = step(undefined, 5).state;
    const first = step(seeded, 0.9);
    expect(first.alerts).toHaveLength(1);
    expect(first.alerts[0]).toMatchObject({
      kind: 'liquidation_risk',
      episodeKey: '7:1',
      details: { positionId: '7', belowPct: 1 },
    });
    const still = step(first.state, 0.5);
    expect(still.alerts).toEqual([]);
    const notRecovered = step(still.state, 1.1);
    expect(notRecovered.state.positions['7']!.phase).toBe('firing');
    expect(step(notRecovered.state, 0.8).alerts).toEqual([]);
    const recovered = step(notRecovered.state, 1.2);
    expect(recovered.state.positions['7']!.phase).toBe('armed');
    const second = step(recovered.state, 0.7);
    expect(second.alerts.map((a) => a.episodeKey)).toEqual(['7:2']);
  });

  it('alerts at once for a position that appears after the watch was seeded', () => {
    const empty = evaluateLiquidationRisk({ prev: undefined, rules: below1, account: account(), closedIds: none });
    if (empty.status !== 'ok') throw new Error('expected ok');
    expect(step(empty.state, 0.5).alerts).toHaveLength(1);
  });

  it('estimates from the remembered bust price and the mark between account reads', () => {
    const seeded = step(undefined, 5).state;
    const near = evaluateLiquidationRisk({ prev: seeded, rules: below1, marks: { BTC: 99_500 }, closedIds: none });
    expect(near.status === 'ok' && near.alerts.map((a) => a.details['markPrice'])).toEqual([99_500]);
    const far = evaluateLiquidationRisk({ prev: seeded, rules: below1, marks: { BTC: 101_000 }, closedIds: none });
    expect(far.status === 'ok' && far.alerts).toEqual([]);
  });

  it('is unknown without an account read or marks, and never re-arms then', () => {
    const firing = step(step(undefined, 5).state, 0.5).state;
    expect(evaluateLiquidationRisk({ prev: firing, rules: below1, closedIds: none })).toEqual({ status: 'unknown' });
  });

  it('forgets positions the feed reported closed', () => {
    const seeded = step(undefined, 5).state;
    const result = evaluateLiquidationRisk({
      prev: seeded,
      rules: below1,
      marks: { BTC: 99_100 },
      closedIds: new Set(['7']),
    });
    expect(result.status === 'ok' && result.state.positions).toEqual({});
  });

  it('tracks silently while the rule is off, and turning it on alerts once for an ongoing breach', () => {
    const off = rules({ liquidation: { enabled: false } });
    const seeded = step(undefined, 5).state;
    const silent = step(seeded, 0.5, { rules: off });
    expect(silent.alerts).toEqual([]);
    expect(silent.state.enabled).toBe(false);
    expect(silent.state.positions['7']).toMatchObject({ phase: 'armed' });
    const on = step(silent.state, 0.4);
    expect(on.alerts.map((a) => a.episodeKey)).toEqual(['7:1']);
    expect(step(on.state, 0.3).alerts).toEqual([]);
  });
});
