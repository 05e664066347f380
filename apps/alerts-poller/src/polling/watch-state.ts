import type { WalletRules } from '@paper/contracts';
import type { BalanceState } from '../rules/balance-change.rule';
import type { PositionsState } from '../rules/liquidation-risk.rule';
import type { RewardsState } from '../rules/rewards.rule';
import type { SessionKeyState } from '../rules/session-key.rule';

/** A watch as the poller reads it. */
export interface WatchRow {
  id: string;
  accountId: string;
  address: string;
  rules: WalletRules;
  createdAt: Date;
}

/** Rule state `account`: how the last account read of this watch's wallet went. */
export interface AccountFetchState {
  /** `unknown` after a failed read: no alert and no re-arm until a read succeeds. */
  status: 'ok' | 'unknown';
  fetchedAt: number;
  okAt: number | null;
  /** Wanted this cycle but over the per-cycle budget: read first next cycle. */
  pending?: boolean;
  /**
   * Trades the feed reported that the account read did not reflect yet (a cached answer): positions
   * expected open and positions expected gone, re-read every cycle for up to RECHECK_WINDOW_MS.
   */
  awaiting?: { since: number; open: string[]; gone: string[] };
  error?: string;
}

/** The rule-state rows of one watch (`alerts.rule_state`, one row per key). */
export interface RuleStates {
  account?: AccountFetchState;
  positions?: PositionsState;
  balance?: BalanceState;
  session_key?: SessionKeyState;
  rewards?: RewardsState;
}

export type RuleStateKey = keyof RuleStates;
export const RULE_STATE_KEYS: readonly RuleStateKey[] = ['account', 'positions', 'balance', 'session_key', 'rewards'];

/** How long a lagging account is re-read every cycle (the tool API caches answers for 5 s). */
export const RECHECK_WINDOW_MS = 30_000;

/** Rules that need the wallet's account (positions, balances, session keys, queued winnings). */
export function needsAccount(rules: WalletRules): boolean {
  return rules.liquidation.enabled || rules.balance.enabled || rules.sessionKey.enabled || rules.rewards.enabled;
}
