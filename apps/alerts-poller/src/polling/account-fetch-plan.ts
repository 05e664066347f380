import { sessionKeyAlertDue } from '../rules/session-key.rule';
import { needsAccount, RECHECK_WINDOW_MS, type RuleStates, type WatchRow } from './watch-state';

export type FetchReason = 'activity' | 'pending' | 'recheck' | 'gap' | 'key_due' | 'unknown' | 'seed' | 'idle';

const PRIORITY: Record<FetchReason, number> = { activity: 0, pending: 0, recheck: 0, gap: 1, key_due: 1, unknown: 2, seed: 2, idle: 3 };

export interface FetchPlanOptions {
  now: number;
  /** Re-read a quiet wallet after this long (deposits and new session keys are not in the trade feed). */
  refreshMs: number;
  /** Account reads per cycle (the tool API's per-caller rate limit is shared by every call). */
  max: number;
  /** Addresses with trade events this cycle. */
  active: ReadonlySet<string>;
  /** The feed had a gap: re-read wallets with open positions. */
  gap: boolean;
}

export interface FetchPlan {
  /** Addresses to read this cycle, most urgent first. */
  fetch: string[];
  /** Addresses that wanted a read but are over the budget (remembered as `pending`). */
  deferred: Set<string>;
  reasons: Map<string, FetchReason>;
}

function reasonFor(watch: WatchRow, states: RuleStates | undefined, options: FetchPlanOptions): FetchReason | undefined {
  const account = states?.account;
  if (options.active.has(watch.address)) return 'activity';
  if (account?.pending) return 'pending';
  if (account?.awaiting && options.now - account.awaiting.since < RECHECK_WINDOW_MS) return 'recheck';
  if (options.gap && Object.keys(states?.positions?.positions ?? {}).length > 0) return 'gap';
  if (sessionKeyAlertDue(states?.session_key, watch.rules, options.now)) return 'key_due';
  if (!account) return 'seed';
  if (account.status === 'unknown') return 'unknown';
  const r = watch.rules;
  const missing =
    (r.liquidation.enabled && !states?.positions) || (r.balance.enabled && !states?.balance?.enabled) || (r.sessionKey.enabled && !states?.session_key?.enabled) || (r.rewards.enabled && !states?.rewards?.enabled);
  if (missing) return 'seed';
  if (options.now - account.fetchedAt >= options.refreshMs) return 'idle';
  return undefined;
}

/**
 * Which wallets to read with get_account this cycle: only watches whose rules need the account, one
 * read per address however many watches share it, wallets with fresh trade activity first, quiet
 * wallets only when their refresh is due, and never more than `max`.
 */
export function planAccountFetches(watches: readonly WatchRow[], states: ReadonlyMap<string, RuleStates>, options: FetchPlanOptions): FetchPlan {
  const best = new Map<string, { reason: FetchReason; fetchedAt: number }>();
  for (const watch of watches) {
    if (!needsAccount(watch.rules)) continue;
    const s = states.get(watch.id);
    const reason = reasonFor(watch, s, options);
    if (!reason) continue;
    const fetchedAt = s?.account?.fetchedAt ?? 0;
    const known = best.get(watch.address);
    if (!known || PRIORITY[reason] < PRIORITY[known.reason] || (PRIORITY[reason] === PRIORITY[known.reason] && fetchedAt < known.fetchedAt)) {
      best.set(watch.address, { reason, fetchedAt });
    }
  }
  const ordered = [...best.entries()].sort(([, a], [, b]) => PRIORITY[a.reason] - PRIORITY[b.reason] || a.fetchedAt - b.fetchedAt);
  const fetch = ordered.slice(0, options.max).map(([address]) => address);
  const deferred = new Set(ordered.slice(options.max).filter(([, v]) => v.reason !== 'idle').map(([address]) => address));
  return { fetch, deferred, reasons: new Map([...best.entries()].map(([a, v]) => [a, v.reason])) };
}
