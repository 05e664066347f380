import type { WatchRow } from '@paper/alerts-data';
import { rules } from '../rules/rule-fixtures';
import type { TradeEvent } from '../tool-api/tool-data';
import { type FetchPlanOptions, planAccountFetches } from './account-fetch-plan';
import { startScan } from './open-position-scan';
import type { RuleStates } from './watch-state';

const NOW = Date.parse('2030-01-02T00:00:00Z');
const addr = (c: string) => `0x${c.repeat(40)}`;
const watch = (id: string, address: string, patch = {}, changedAt = new Date(NOW - 3_600_000)): WatchRow => ({
  id,
  accountId: 'acc',
  address,
  rules: rules(patch),
  createdAt: changedAt,
  changedAt,
});
const seeded = (
  fetchedAt: number,
  positions: RuleStates['positions'] = { enabled: true, positions: {} },
): RuleStates => ({
  account: { status: 'ok', fetchedAt, okAt: fetchedAt },
  positions,
  session_key: { enabled: true, keys: {} },
});
const event = (type: TradeEvent['type'], trader: string): TradeEvent => ({
  type,
  positionId: '1',
  trader,
  market: 'BTC',
  side: 'long',
  leverage: 10,
  marginUsd: 100,
  notionalUsd: 1000,
  price: 100_000,
  pnlUsd: null,
  time: new Date(NOW).toISOString(),
});
const options = (patch: Partial<FetchPlanOptions> = {}): FetchPlanOptions => ({
  now: NOW,
  refreshMs: 600_000,
  max: 10,
  refreshMax: 2,
  events: new Map(),
  gap: false,
  scan: undefined,
  ...patch,
});

describe('account read plan', () => {
  it('reads each address once, wallets that opened first, quiet ones only when their refresh is due', () => {
    const [a, b, c] = [addr('a'), addr('b'), addr('c')];
    const watches = [
      watch('1', a),
      watch('2', a),
      watch('3', b),
      watch('4', c),
      watch('5', addr('d'), { liquidation: { enabled: false }, sessionKey: { enabled: false } }),
    ];
    const states = new Map([
      ['1', seeded(NOW - 1000)],
      ['2', seeded(NOW - 1000)],
      ['3', seeded(NOW - 700_000)],
      ['4', seeded(NOW - 1000)],
    ]);
    const plan = planAccountFetches(watches, states, options({ events: new Map([[c, [event('open', c)]]]) }));
    expect(plan.fetch).toEqual([c, b]);
    expect(plan.reasons.get(c)).toBe('activity');
    expect(plan.reasons.get(b)).toBe('idle');
  });

  it('needs no read for a close when only liquidation risk and session keys are watched, but does for balance rules', () => {
    const [a, b] = [addr('a'), addr('b')];
    const watches = [watch('1', a), watch('2', b, { balance: { enabled: true } })];
    const states = new Map([
      ['1', seeded(NOW - 1000)],
      ['2', { ...seeded(NOW - 1000), balance: { enabled: true, baselineMicro: '0', episode: 0 } }],
    ]);
    const plan = planAccountFetches(
      watches,
      states,
      options({
        events: new Map([
          [a, [event('close', a)]],
          [b, [event('close', b)]],
        ]),
      }),
    );
    expect(plan.fetch).toEqual([b]);
  });

  it('caps quiet-wallet refreshes per cycle, and defers only urgent reads over the budget', () => {
    const watches = ['a', 'b', 'c', 'd', 'e'].map((c, i) => watch(String(i), addr(c)));
    const old = new Map(watches.map((w, i) => [w.id, seeded(NOW - 1_000_000 - i)]));
    const refresh = planAccountFetches(watches, old, options());
    expect(refresh.fetch).toHaveLength(2);
    expect(refresh.deferred.size).toBe(0);
    const busy = planAccountFetches(
      watches,
      old,
      options({ max: 2, events: new Map(watches.map((w) => [w.address, [event('open', w.address)]])) }),
    );
    expect(busy.fetch).toHaveLength(2);
    expect(busy.deferred.size).toBe(3);
  });

  it('reads a wallet whose positions are unknown, unless a running scan answers for it', () => {
    const old = watch('1', addr('a'));
    const fresh = watch('2', addr('b'), {}, new Date(NOW - 1000));
    expect(planAccountFetches([old, fresh], new Map(), options()).fetch.sort()).toEqual([addr('a'), addr('b')]);
    const scan = startScan(NOW - 5000);
    const during = planAccountFetches([old, fresh], new Map(), options({ scan }));
    expect(during.fetch).toEqual([]);
    expect(during.pages).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(during.verdicts.get('1')).toBe('waiting');
    expect(during.verdicts.get('2')).toBe('ineligible');
    const done = { ...scan, complete: true, coveredAll: true, nextPage: 3, open: [] };
    const after = planAccountFetches([old, fresh], new Map(), options({ scan: done }));
    expect(after.verdicts.get('1')).toBe('empty');
    expect(after.fetch).toEqual([addr('b')]);
    expect(after.pages).toEqual([]);
    const open = planAccountFetches([old], new Map(), options({ scan: { ...done, open: [addr('a')] } }));
    expect(open.fetch).toEqual([addr('a')]);
    expect(open.reasons.get(addr('a'))).toBe('seed');
  });

  it('gives urgent reads the budget before scan pages, and scan pages before seeds and baselines', () => {
    const opener = watch('1', addr('a'));
    const baseline = watch('2', addr('b'), { balance: { enabled: true } });
    const states = new Map([
      ['1', seeded(NOW - 1000)],
      ['2', seeded(NOW - 1000)],
    ]);
    const plan = planAccountFetches(
      [opener, baseline],
      states,
      options({ max: 3, scan: startScan(NOW), events: new Map([[addr('a'), [event('open', addr('a'))]]]) }),
    );
    expect(plan.fetch).toEqual([addr('a')]);
    expect(plan.pages).toEqual([0, 1]);
  });
});
