import type { WalletRules } from '@paper/contracts';
import type { BalanceState } from '../rules/balance-change.rule';
import type { PositionsState } from '../rules/liquidation-risk.rule';
import type { RewardsState } from '../rules/rewards.rule';
import type { SessionKeyState } from '../rules/session-key.rule';

/** Rule state `account`: how the last account read of this watch's wallet went. */
export interface AccountFetchState {
  /**
   * `unknown` after a failed read: no alert and no re-arm until a read succeeds. `unread` while the
   * wallet was never read (its positions may be known from a leaderboard scan, or a read is pending).
   */
  status: 'ok' | 'unknown' | 'unread';
  /** When it was last read (or, while `unread`, when the state was created). */
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

/** The rules that need the wallet's account, each with the state it keeps (liquidation first). */
export const ACCOUNT_RULE_STATES = [
  ['liquidation', 'positions'],
  ['balance', 'balance'],
  ['sessionKey', 'session_key'],
  ['rewards', 'rewards'],
] as const satisfies readonly (readonly [keyof WalletRules, RuleStateKey])[];

/** Rules that need the wallet's account (positions, balances, session keys, queued winnings). */
export function needsAccount(rules: WalletRules): boolean {
  return ACCOUNT_RULE_STATES.some(([rule]) => rules[rule].enabled);
}

/**
 * Rules whose value changes when the wallet trades (balance, queued winnings): a close re-reads the account for them.
 */
export function tradesChangeValues(rules: WalletRules): boolean {
  return rules.balance.enabled || rules.rewards.enabled;
}

/** The liquidation rule is on but the wallet's open positions are not known yet: no liquidation coverage. */
export function needsPositions(rules: WalletRules, states: RuleStates | undefined): boolean {
  return rules.liquidation.enabled && !states?.positions?.enabled;
}

/** A rule other than liquidation is on but was never evaluated: its baseline needs one account read. */
export function needsBaseline(rules: WalletRules, states: RuleStates | undefined): boolean {
  return ACCOUNT_RULE_STATES.some(
    ([rule, state]) => rule !== 'liquidation' && rules[rule].enabled && !states?.[state]?.enabled,
  );
}

/**
 * A rule was turned off but its state still says it is on (flipped without a read, so turning it on again starts
 * silently).
 */
export function hasStaleEnabled(rules: WalletRules, states: RuleStates): boolean {
  return ACCOUNT_RULE_STATES.some(([rule, state]) => !rules[rule].enabled && Boolean(states[state]?.enabled));
}

/** The states of rules turned off, marked off (turning such a rule on again then starts silently). */
export function disableOffRules(rules: WalletRules, states: RuleStates): RuleStates {
  const next = { ...states };
  for (const [rule, state] of ACCOUNT_RULE_STATES) {
    const kept = next[state];
    if (!rules[rule].enabled && kept?.enabled) (next as Record<string, unknown>)[state] = { ...kept, enabled: false };
  }
  return next;
}
