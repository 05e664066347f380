import type { WatchRow } from '@paper/alerts-data';
import { rules } from '../rules/rule-fixtures';
import { account, FIXTURE_WALLET, position, trade } from '../testing/tool-fixtures';
import type { TradeEvent } from '../tool-api/tool-data';
import { eventIdFor, uuidFrom } from '../alerts/alert-ids';
import { canonicalJson } from './canonical-json';
import { pageHasGap, readFeed } from './feed-cursor';
import { evaluateWatch } from './watch-evaluator';

const W = FIXTURE_WALLET;
const tradeAt = (type: TradeEvent['type'], id: string, time: string, trader = W): TradeEvent =>
  trade(type, id, { time, trader });
const watch = (id: string, patch = {}, address = W): WatchRow => ({
  id,
  accountId: 'acc',
  address,
  rules: rules(patch),
  createdAt: new Date('2030-01-01T00:00:00Z'),
  changedAt: new Date('2030-01-01T00:00:00Z'),
});

describe('ids', () => {
  it('derives stable event ids and UUIDs', () => {
    expect(eventIdFor('w', 'position_opened', '7')).toBe(eventIdFor('w', 'position_opened', '7'));
    expect(eventIdFor('w', 'position_opened', '7')).not.toBe(eventIdFor('w', 'position_closed', '7'));
    expect(uuidFrom('x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('compares JSON regardless of key order', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe(canonicalJson({ a: { c: 3, d: 2 }, b: 1 }));
  });
});

describe('feed cursor', () => {
  it('returns each event once, oldest first, and keeps late events inside the overlap window', () => {
    const first = readFeed(
      undefined,
      [tradeAt('open', '2', '2030-01-01T00:00:02Z'), tradeAt('open', '1', '2030-01-01T00:00:01Z')],
      30_000,
    );
    expect(first.fresh.map((e) => e.positionId)).toEqual(['1', '2']);
    const again = readFeed(
      first.cursor,
      [
        tradeAt('close', '2', '2030-01-01T00:00:05Z'),
        tradeAt('open', '3', '2030-01-01T00:00:00.500Z'),
        tradeAt('open', '2', '2030-01-01T00:00:02Z'),
      ],
      30_000,
    );
    expect(again.fresh.map((e) => `${e.type}:${e.positionId}`)).toEqual(['open:3', 'close:2']);
    const old = readFeed(again.cursor, [tradeAt('open', '9', '2029-12-31T23:00:00Z')], 30_000);
    expect(old.fresh).toEqual([]);
  });

  it('detects a full page that does not reach back to the cursor', () => {
    const page = Array.from({ length: 50 }, (_, i) =>
      tradeAt('open', String(i), `2030-01-01T00:01:${String(i).padStart(2, '0')}Z`),
    );
    expect(pageHasGap(Date.parse('2030-01-01T00:00:00Z'), page)).toBe(true);
    expect(pageHasGap(Date.parse('2030-01-01T00:01:10Z'), page)).toBe(false);
    expect(pageHasGap(null, page)).toBe(false);
  });
});

describe('watch evaluation', () => {
  const w = watch('w1', { liquidation: { enabled: true, belowPct: 1 }, balance: { enabled: true, changeUsd: 50 } });
  const now = Date.parse('2030-01-02T00:00:00Z');

  it('seeds silently, then alerts on trades and liquidation risk', () => {
    const seed = evaluateWatch(w, {}, { now, feedOk: true, events: [], account: { ok: true, data: account() } });
    expect(seed.alerts).toEqual([]);
    const opened = evaluateWatch(w, seed.next, {
      now,
      feedOk: true,
      events: [tradeAt('open', '7', '2030-01-02T00:00:00Z')],
      account: { ok: true, data: account({ positions: [position('7', { liquidationDistancePercent: 0.9 })] }) },
    });
    expect(opened.alerts.map((a) => a.kind).sort()).toEqual(['liquidation_risk', 'position_opened']);
  });

  it('keeps rule states as they were, marked unknown, when the account read fails', () => {
    const seed = evaluateWatch(
      w,
      {},
      {
        now,
        feedOk: true,
        events: [],
        account: { ok: true, data: account({ positions: [position('7', { liquidationDistancePercent: 0.5 })] }) },
      },
    );
    const failed = evaluateWatch(w, seed.next, {
      now: now + 5000,
      feedOk: false,
      events: [],
      account: { ok: false, error: 'get_account: answered 502' },
    });
    expect(failed.alerts).toEqual([]);
    expect(failed.next.account).toMatchObject({ status: 'unknown', okAt: now });
    expect(failed.next.positions).toEqual(seed.next.positions);
    expect(failed.next.balance).toEqual(seed.next.balance);
  });

  it('asks for a re-read when a cached account does not show a reported open yet', () => {
    const seed = evaluateWatch(w, {}, { now, feedOk: true, events: [], account: { ok: true, data: account() } });
    const stale = evaluateWatch(w, seed.next, {
      now,
      feedOk: true,
      events: [tradeAt('open', '8', '2030-01-02T00:00:00Z')],
      account: { ok: true, data: account() },
    });
    expect(stale.next.account?.awaiting).toEqual({ since: now, open: ['8'], gone: [] });
    const still = evaluateWatch(w, stale.next, {
      now: now + 5000,
      feedOk: true,
      events: [],
      account: { ok: true, data: account() },
    });
    expect(still.next.account?.awaiting).toEqual({ since: now, open: ['8'], gone: [] });
    const caught = evaluateWatch(w, still.next, {
      now: now + 6000,
      feedOk: true,
      events: [],
      account: { ok: true, data: account({ positions: [position('8', { liquidationDistancePercent: 5 })] }) },
    });
    expect(caught.next.account?.awaiting).toBeUndefined();
    expect(caught.alerts).toEqual([]);
    expect(Object.keys(caught.next.positions!.positions)).toEqual(['8']);
  });

  it('reports an open the feed missed when the account shows it', () => {
    const seed = evaluateWatch(w, {}, { now, feedOk: true, events: [], account: { ok: true, data: account() } });
    const seen = evaluateWatch(w, seed.next, {
      now,
      feedOk: true,
      events: [],
      account: {
        ok: true,
        data: account({
          positions: [position('9', { openedAt: '2030-01-01T12:00:00.000Z', liquidationDistancePercent: 5 })],
        }),
      },
    });
    expect(seen.alerts.map((a) => [a.kind, a.episodeKey])).toEqual([['position_opened', '9']]);
  });

  it('seeds positions without a read when the scan found none, and only then', () => {
    const seeded = evaluateWatch(w, {}, { now, feedOk: true, events: [], verdict: 'empty' });
    expect(seeded.alerts).toEqual([]);
    expect(seeded.next).toEqual({
      positions: { enabled: true, positions: {} },
      account: { status: 'unread', fetchedAt: now, okAt: null },
    });
    expect(evaluateWatch(w, {}, { now, feedOk: true, events: [], verdict: 'waiting' }).next).toEqual({});
  });

  it('drops a position the feed reports closed without reading the account, and a cached read does not bring it back', () => {
    const seed = evaluateWatch(
      w,
      {},
      {
        now,
        feedOk: true,
        events: [],
        account: { ok: true, data: account({ positions: [position('5', { liquidationDistancePercent: 5 })] }) },
      },
    );
    const marks = { BTC: 100_000, ETH: 3500 };
    const closed = evaluateWatch(w, seed.next, {
      now: now + 5000,
      feedOk: true,
      events: [tradeAt('close', '5', '2030-01-02T00:00:05Z')],
      marks,
    });
    expect(closed.alerts.map((a) => a.kind)).toEqual(['position_closed']);
    expect(closed.next.positions).toEqual({ enabled: true, positions: {}, closed: { '5': now + 5000 } });
    const cached = evaluateWatch(w, closed.next, {
      now: now + 8000,
      feedOk: true,
      events: [],
      account: { ok: true, data: account({ positions: [position('5', { liquidationDistancePercent: 0.1 })] }) },
    });
    expect(cached.alerts).toEqual([]);
    expect(cached.next.positions!.positions).toEqual({});
  });

  it('marks turned-off rules as off without a read, so turning them on again starts silently', () => {
    const seed = evaluateWatch(w, {}, { now, feedOk: true, events: [], account: { ok: true, data: account() } });
    const off = watch('w1', { liquidation: { enabled: true, belowPct: 1 }, balance: { enabled: false } });
    const next = evaluateWatch(off, seed.next, { now, feedOk: true, events: [] }).next;
    expect(next.balance).toMatchObject({ enabled: false });
    const back = evaluateWatch(w, next, {
      now,
      feedOk: true,
      events: [],
      account: { ok: true, data: account({ freeUsd: 5000 }) },
    });
    expect(back.alerts).toEqual([]);
  });

  it('drops account states when no rule needs the account any more', () => {
    const seed = evaluateWatch(w, {}, { now, feedOk: true, events: [], account: { ok: true, data: account() } });
    const tradesOnly = watch('w1', {
      liquidation: { enabled: false },
      sessionKey: { enabled: false },
      balance: { enabled: false },
      rewards: { enabled: false },
    });
    expect(evaluateWatch(tradesOnly, seed.next, { now, feedOk: true, events: [] }).next).toEqual({});
  });
});
