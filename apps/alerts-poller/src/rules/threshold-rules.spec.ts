import { evaluateBalanceChange } from './balance-change.rule';
import { evaluateRewards } from './rewards.rule';
import { account, sessionKey } from '../testing/tool-fixtures';
import { rules } from './rule-fixtures';
import { microToUsd, usdToMicro } from './rule-types';
import { evaluateSessionKeys, sessionKeyAlertDue } from './session-key.rule';

const DAY = 86_400_000;

describe('money helpers', () => {
  it('converts tool amounts to integer micro-units and back', () => {
    expect(usdToMicro(0.1 + 0.2)).toBe(300_000n);
    expect(usdToMicro(-12.345678)).toBe(-12_345_678n);
    expect(microToUsd(1_000_500_000n)).toBe('1000.5');
    expect(microToUsd(-1n)).toBe('-0.000001');
  });
});

describe('balance change', () => {
  const r = rules({ balance: { enabled: true, changeUsd: 100 } });

  it('seeds the baseline silently, then fires on a change of at least changeUsd either way and moves the baseline', () => {
    const seed = evaluateBalanceChange(undefined, r, account({ freeUsd: 900, lockedUsd: 100 }));
    expect(seed.alerts).toEqual([]);
    expect(seed.state.baselineMicro).toBe('1000000000');
    const small = evaluateBalanceChange(seed.state, r, account({ freeUsd: 999.99, lockedUsd: 0 }));
    expect(small.alerts).toEqual([]);
    const drop = evaluateBalanceChange(small.state, r, account({ freeUsd: 850, lockedUsd: 50 }));
    expect(drop.alerts[0]).toMatchObject({
      kind: 'balance_change',
      episodeKey: '1',
      details: { previousUsd: '1000', currentUsd: '900', changeUsd: '-100' },
    });
    expect(evaluateBalanceChange(drop.state, r, account({ freeUsd: 850, lockedUsd: 50 })).alerts).toEqual([]);
  });

  it('counts queued winnings but not unrealized PnL', () => {
    const seed = evaluateBalanceChange(undefined, r, account()).state;
    expect(evaluateBalanceChange(seed, r, account({ unrealizedPnlUsd: 5000, equityUsd: 6000 })).alerts).toEqual([]);
    expect(evaluateBalanceChange(seed, r, account({ queuedUsd: 150 })).alerts).toHaveLength(1);
  });

  it('re-seeds when the rule is turned back on', () => {
    const off = evaluateBalanceChange(undefined, rules({ balance: { enabled: false } }), account()).state;
    expect(evaluateBalanceChange(off, r, account({ freeUsd: 5000 })).alerts).toEqual([]);
  });
});

describe('session key expiry', () => {
  const now = Date.parse('2030-01-10T00:00:00Z');
  const r = rules({ sessionKey: { enabled: true, withinDays: 3 } });
  const key = (expiresAt: string, extra = {}) => sessionKey({ address: '0xkey', expiresAt, ...extra });

  it('alerts once per key and expiry when the key enters the window', () => {
    const seed = evaluateSessionKeys(undefined, r, account({ sessionKeys: [key('2030-01-20T00:00:00.000Z')] }), now);
    expect(seed.alerts).toEqual([]);
    const later = now + 8 * DAY;
    expect(sessionKeyAlertDue(seed.state, r, later)).toBe(true);
    const due = evaluateSessionKeys(seed.state, r, account({ sessionKeys: [key('2030-01-20T00:00:00.000Z')] }), later);
    expect(due.alerts).toHaveLength(1);
    expect(due.alerts[0]!.details).toMatchObject({ sessionKey: '0xkey', daysLeft: 2 });
    expect(sessionKeyAlertDue(due.state, r, later)).toBe(false);
    expect(
      evaluateSessionKeys(due.state, r, account({ sessionKeys: [key('2030-01-20T00:00:00.000Z')] }), later + 1000)
        .alerts,
    ).toEqual([]);
    const renewed = evaluateSessionKeys(
      due.state,
      r,
      account({ sessionKeys: [key('2030-01-20T12:00:00.000Z')] }),
      later + 1000,
    );
    expect(renewed.alerts).toHaveLength(1);
  });

  it('seeds keys already inside the window silently and ignores revoked keys', () => {
    const seed = evaluateSessionKeys(undefined, r, account({ sessionKeys: [key('2030-01-11T00:00:00.000Z')] }), now);
    expect(seed.alerts).toEqual([]);
    expect(seed.state.keys['0xkey']!.notified).toBe(true);
    const revoked = evaluateSessionKeys(
      seed.state,
      r,
      account({ sessionKeys: [key('2030-01-12T00:00:00.000Z', { revokedAt: '2030-01-09T00:00:00Z' })] }),
      now,
    );
    expect(revoked.alerts).toEqual([]);
    expect(revoked.state.keys).toEqual({});
  });
});

describe('rewards', () => {
  const r = rules({ rewards: { enabled: true, aboveUsdc: 100 } });

  it('fires above the threshold once and re-arms at or below 80% of it', () => {
    const seed = evaluateRewards(undefined, r, account({ queuedUsd: 0 }));
    const up = evaluateRewards(seed.state, r, account({ queuedUsd: 100.01 }));
    expect(up.alerts).toHaveLength(1);
    const dip = evaluateRewards(up.state, r, account({ queuedUsd: 90 }));
    expect(dip.state.phase).toBe('firing');
    expect(evaluateRewards(dip.state, r, account({ queuedUsd: 120 })).alerts).toEqual([]);
    const low = evaluateRewards(dip.state, r, account({ queuedUsd: 80 }));
    expect(low.state.phase).toBe('armed');
    expect(evaluateRewards(low.state, r, account({ queuedUsd: 101 })).alerts.map((a) => a.episodeKey)).toEqual(['2']);
  });

  it('does not fire at exactly the threshold', () => {
    const seed = evaluateRewards(undefined, r, account()).state;
    expect(evaluateRewards(seed, r, account({ queuedUsd: 100 })).alerts).toEqual([]);
  });
});
