import type { WatchRow } from '@paper/alerts-data';
import { sessionKeyAlertDue } from '../rules/session-key.rule';
import type { TradeEvent } from '../tool-api/tool-data';
import { nextScanPages, type ScanState, scanVerdict, type ScanVerdict } from './open-position-scan';
import {
  needsAccount,
  needsBaseline,
  needsPositions,
  RECHECK_WINDOW_MS,
  type RuleStates,
  tradesChangeValues,
} from './watch-state';

/**
 * Why a wallet's account is read, most urgent first:
 * - activity: the feed shows an open (bust prices to learn) or, for balance and rewards rules, any trade;
 * - pending: an urgent read that did not fit the last cycle's budget;
 * - recheck: the last read did not show yet what the feed reported (a cached answer);
 * - gap: the feed may have missed events and the wallet has open positions;
 * - key_due: a known session key entered its alert window (confirmed before alerting);
 * - seed: liquidation risk is on and the wallet's positions are unknown (no scan can tell);
 * - unknown: the last read failed;
 * - baseline: a balance, session-key or rewards rule was never evaluated;
 * - idle: the slow refresh of a quiet wallet (deposits, payouts, staking, new keys are not in the feed).
 */
export type FetchReason =
  'activity' | 'pending' | 'recheck' | 'gap' | 'key_due' | 'seed' | 'unknown' | 'baseline' | 'idle';

const PRIORITY: Record<FetchReason, number> = {
  activity: 0,
  pending: 0,
  recheck: 0,
  gap: 1,
  key_due: 1,
  seed: 2,
  unknown: 2,
  baseline: 3,
  idle: 4,
};
/** Reads of these priorities that do not fit the budget are remembered as `pending` (read first next cycle). */
const URGENT = 1;

export interface FetchPlanOptions {
  now: number;
  /** Re-read a quiet wallet after this long. */
  refreshMs: number;
  /** Tool calls per cycle beyond the trade feed and get_markets: account reads and leaderboard pages. */
  max: number;
  /** Quiet-wallet refresh reads per cycle at most (the rest wait: the refresh period stretches). */
  refreshMax: number;
  /** New trade events this cycle per watched address. */
  events: ReadonlyMap<string, readonly TradeEvent[]>;
  /** The feed had a gap: re-read wallets with open positions. */
  gap: boolean;
  /** The open-position scan in progress, if any. */
  scan: ScanState | undefined;
}

export interface FetchPlan {
  /** Addresses to read this cycle, most urgent first. */
  fetch: string[];
  /** Leaderboard pages to read this cycle (open-position scan). */
  pages: number[];
  /** Addresses that wanted an urgent read but are over the budget (remembered as `pending`). */
  deferred: Set<string>;
  reasons: Map<string, FetchReason>;
  /** Per watch whose positions are unknown: what the scan says about its wallet. */
  verdicts: Map<string, ScanVerdict>;
}

function activityNeedsRead(watch: WatchRow, events: readonly TradeEvent[] | undefined): boolean {
  if (!events || events.length === 0) return false;
  return events.some((e) => e.type === 'open') || tradesChangeValues(watch.rules);
}

function reasonFor(
  watch: WatchRow,
  states: RuleStates | undefined,
  verdict: ScanVerdict | undefined,
  options: FetchPlanOptions,
): FetchReason | undefined {
  const account = states?.account;
  const hasPositions = Object.keys(states?.positions?.positions ?? {}).length > 0;
  if (activityNeedsRead(watch, options.events.get(watch.address))) return 'activity';
  if (account?.pending) return 'pending';
  if (account?.awaiting && options.now - account.awaiting.since < RECHECK_WINDOW_MS) return 'recheck';
  if (options.gap && hasPositions) return 'gap';
  if (sessionKeyAlertDue(states?.session_key, watch.rules, options.now)) return 'key_due';
  if (account?.status === 'unknown') return 'unknown';
  if (needsPositions(watch.rules, states)) {
    // The scan answers for its wallet (empty: seeded without a read) or will soon (waiting).
    if (
      verdict === 'empty' ||
      verdict === 'waiting' ||
      (verdict === 'ineligible' && options.scan && !options.scan.complete)
    )
      return undefined;
    return 'seed';
  }
  if (needsBaseline(watch.rules, states)) return 'baseline';
  if (!account || options.now - account.fetchedAt >= options.refreshMs) return 'idle';
  return undefined;
}

/** What the scan says about each watch whose positions are unknown (by watch id). */
export function scanVerdicts(
  watches: readonly WatchRow[],
  states: ReadonlyMap<string, RuleStates>,
  scan: ScanState | undefined,
): Map<string, ScanVerdict> {
  const verdicts = new Map<string, ScanVerdict>();
  if (!scan) return verdicts;
  const open = new Set(scan.open);
  for (const watch of watches) {
    if (needsPositions(watch.rules, states.get(watch.id)))
      verdicts.set(watch.id, scanVerdict(scan, watch.address, watch.changedAt, open));
  }
  return verdicts;
}

/**
 * What to read this cycle. Only watches whose rules need the account; one read per address however
 * many watches share it; urgent reads first, then the pages of an open-position scan, then positions
 * to seed, failed reads, rule baselines, and quiet wallets due for their refresh (at most `refreshMax`).
 * Never more than `max` calls in all. Price moves, closes (for liquidation risk and session keys) and
 * quiet wallets without positions need no read at all.
 */
export function planAccountFetches(
  watches: readonly WatchRow[],
  states: ReadonlyMap<string, RuleStates>,
  options: FetchPlanOptions,
): FetchPlan {
  const best = new Map<string, { reason: FetchReason; fetchedAt: number }>();
  const verdicts = scanVerdicts(watches, states, options.scan);
  for (const watch of watches) {
    if (!needsAccount(watch.rules)) continue;
    const s = states.get(watch.id);
    const reason = reasonFor(watch, s, verdicts.get(watch.id), options);
    if (!reason) continue;
    const fetchedAt = s?.account?.fetchedAt ?? 0;
    const known = best.get(watch.address);
    if (
      !known ||
      PRIORITY[reason] < PRIORITY[known.reason] ||
      (PRIORITY[reason] === PRIORITY[known.reason] && fetchedAt < known.fetchedAt)
    ) {
      best.set(watch.address, { reason, fetchedAt });
    }
  }
  const ordered = [...best.entries()].sort(
    ([, a], [, b]) => PRIORITY[a.reason] - PRIORITY[b.reason] || a.fetchedAt - b.fetchedAt,
  );
  const urgent = ordered.filter(([, v]) => PRIORITY[v.reason] <= URGENT);
  const fetch = urgent.slice(0, options.max).map(([address]) => address);
  const deferred = new Set(urgent.slice(options.max).map(([address]) => address));
  const pages = options.scan ? nextScanPages(options.scan, options.max - fetch.length) : [];
  let refreshes = 0;
  for (const [address, v] of ordered) {
    if (fetch.length + pages.length >= options.max) break;
    if (PRIORITY[v.reason] <= URGENT) continue;
    if (v.reason === 'idle' && refreshes++ >= options.refreshMax) break;
    fetch.push(address);
  }
  return { fetch, pages, deferred, reasons: new Map([...best.entries()].map(([a, v]) => [a, v.reason])), verdicts };
}
