import type { WatchRow } from '@paper/alerts-data';
import { evaluateBalanceChange } from '../rules/balance-change.rule';
import { evaluateLiquidationRisk, type PositionsState } from '../rules/liquidation-risk.rule';
import { evaluateRewards } from '../rules/rewards.rule';
import type { RuleAlert } from '../rules/rule-types';
import { evaluateSessionKeys } from '../rules/session-key.rule';
import { evaluateTradeEvents, tradeDetails } from '../rules/trade-events.rule';
import type { AccountData, Marks, TradeEvent } from '../tool-api/tool-data';
import type { ScanVerdict } from './open-position-scan';
import {
  type AccountFetchState,
  disableOffRules,
  needsAccount,
  needsPositions,
  RECHECK_WINDOW_MS,
  type RuleStates,
} from './watch-state';

/** What one cycle observed about a watch's wallet. */
export interface WatchObservation {
  now: number;
  /** False when the trade feed could not be read: no trade alerts, no local liquidation estimate. */
  feedOk: boolean;
  /** New trade events of this wallet, oldest first. */
  events: readonly TradeEvent[];
  /** The account read this cycle (ok or failed); absent when it was not read. */
  account?: { ok: true; data: AccountData } | { ok: false; error: string };
  /** The account was wanted but the cycle's budget was spent. */
  deferred?: boolean;
  /** What the open-position scan says about this wallet (only while its positions are unknown). */
  verdict?: ScanVerdict;
  marks?: Marks;
  margin?: number;
}

export interface WatchEvaluation {
  next: RuleStates;
  alerts: RuleAlert[];
}

/**
 * What the feed reported (this cycle and, still unmet, earlier ones) that the possibly cached account
 * does not show yet: kept for RECHECK_WINDOW_MS so the account is read again until it agrees.
 */
function awaitedTrades(
  prev: AccountFetchState | undefined,
  account: AccountData,
  events: readonly TradeEvent[],
  now: number,
): AccountFetchState['awaiting'] {
  const gone = new Set([
    ...(prev?.awaiting?.gone ?? []),
    ...events.filter((e) => e.type !== 'open').map((e) => e.positionId),
  ]);
  const open = new Set([
    ...(prev?.awaiting?.open ?? []),
    ...events.filter((e) => e.type === 'open').map((e) => e.positionId),
  ]);
  const shown = new Set(account.positions.map((p) => p.positionId));
  const stillGone = [...gone].filter((id) => shown.has(id));
  const stillOpen = [...open].filter((id) => !shown.has(id) && !gone.has(id));
  if (stillGone.length === 0 && stillOpen.length === 0) return undefined;
  const since = prev?.awaiting?.since ?? now;
  return now - since < RECHECK_WINDOW_MS ? { since, open: stillOpen, gone: stillGone } : undefined;
}

/** Positions the account shows that were not known before and that the feed did not report: opened unseen. */
function openedUnseen(
  prev: PositionsState | undefined,
  account: AccountData,
  reported: ReadonlySet<string>,
  watch: WatchRow,
): RuleAlert[] {
  if (!prev || !watch.rules.opened) return [];
  return account.positions
    .filter(
      (p) =>
        !(p.positionId in prev.positions) &&
        !reported.has(p.positionId) &&
        Date.parse(p.openedAt) >= watch.createdAt.getTime(),
    )
    .map((p) => ({
      kind: 'position_opened' as const,
      episodeKey: p.positionId,
      occurredAt: new Date(p.openedAt),
      details: tradeDetails({
        type: 'open',
        positionId: p.positionId,
        trader: account.wallet,
        market: p.market,
        side: p.side,
        leverage: p.leverage,
        marginUsd: p.marginUsd,
        notionalUsd: p.notionalUsd,
        price: p.entryPrice,
        pnlUsd: null,
        time: p.openedAt,
      }),
    }));
}

/**
 * Evaluates every rule of one watch against one cycle's observations. Pure: returns the next rule
 * states and the alerts to raise. A failed read leaves the affected states as they were, marked
 * `unknown` (never treated as a recovery); rules that need no account drop their account states, so
 * turning them on again starts silently.
 */
export function evaluateWatch(watch: WatchRow, prev: RuleStates, obs: WatchObservation): WatchEvaluation {
  const alerts: RuleAlert[] = obs.feedOk ? evaluateTradeEvents(watch.rules, watch.createdAt, obs.events) : [];
  if (!needsAccount(watch.rules)) return { next: {}, alerts };
  const next: RuleStates = { ...prev };
  const closedIds = new Set([
    ...obs.events.filter((e) => e.type !== 'open').map((e) => e.positionId),
    ...(prev.account?.awaiting?.gone ?? []),
  ]);
  const account = obs.account;
  if (account?.ok) {
    const data = account.data;
    const awaiting = awaitedTrades(prev.account, data, obs.events, obs.now);
    next.account = { status: 'ok', fetchedAt: obs.now, okAt: obs.now, ...(awaiting ? { awaiting } : {}) };
    const reported = new Set([
      ...obs.events.filter((e) => e.type === 'open').map((e) => e.positionId),
      ...(prev.account?.awaiting?.open ?? []),
      ...Object.keys(prev.positions?.closed ?? {}),
    ]);
    alerts.push(...openedUnseen(prev.positions, data, reported, watch));
    const liquidation = evaluateLiquidationRisk({
      prev: prev.positions,
      rules: watch.rules,
      account: data,
      closedIds,
      margin: obs.margin,
      now: obs.now,
    });
    if (liquidation.status === 'ok') {
      next.positions = liquidation.state;
      alerts.push(...liquidation.alerts);
    }
    const balance = evaluateBalanceChange(prev.balance, watch.rules, data);
    const keys = evaluateSessionKeys(prev.session_key, watch.rules, data, obs.now);
    const rewards = evaluateRewards(prev.rewards, watch.rules, data, obs.margin);
    next.balance = balance.state;
    next.session_key = keys.state;
    next.rewards = rewards.state;
    alerts.push(...balance.alerts, ...keys.alerts, ...rewards.alerts);
    return { next, alerts };
  }
  if (account && !account.ok) {
    next.account = {
      ...(prev.account ?? { okAt: null }),
      status: 'unknown',
      fetchedAt: obs.now,
      error: account.error.slice(0, 300),
      pending: undefined,
    };
  } else if (obs.deferred) {
    next.account = { ...(prev.account ?? { status: 'unread', fetchedAt: obs.now, okAt: null }), pending: true };
  }
  if (obs.verdict === 'empty' && needsPositions(watch.rules, prev)) {
    // The scan found no open position for this wallet: liquidation risk is covered without a read (silently seeded).
    next.positions = { enabled: true, positions: {} };
    next.account ??= { status: 'unread', fetchedAt: obs.now, okAt: null };
  } else if (obs.feedOk && prev.positions) {
    const liquidation = evaluateLiquidationRisk({
      prev: prev.positions,
      rules: watch.rules,
      marks: obs.marks,
      closedIds,
      margin: obs.margin,
      now: obs.now,
    });
    if (liquidation.status === 'ok') {
      next.positions = liquidation.state;
      alerts.push(...liquidation.alerts);
    }
  }
  return { next: disableOffRules(watch.rules, prune(next)), alerts };
}

function prune(states: RuleStates): RuleStates {
  return Object.fromEntries(Object.entries(states).filter(([, v]) => v !== undefined)) as RuleStates;
}
