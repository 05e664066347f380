/**
 * Alert rules of a wallet watch (wire format shared by alerts-api, which stores them, and the poller,
 * which evaluates them). Stored rules are always complete: defaults merged with what the client sent.
 */
export interface WalletRules {
  liquidation: { enabled: boolean; belowPct: number };
  opened: boolean;
  closed: boolean;
  liquidated: boolean;
  balance: { enabled: boolean; changeUsd: number };
  sessionKey: { enabled: boolean; withinDays: number };
  rewards: { enabled: boolean; aboveUsdc: number };
}

/** A partial update of wallet rules: every field and nested field optional. */
export type WalletRulesPatch = {
  [K in keyof WalletRules]?: WalletRules[K] extends object ? Partial<WalletRules[K]> : WalletRules[K];
};

/** Inclusive bounds of the numeric rule fields. */
export const WALLET_RULE_RANGES = Object.freeze({
  belowPct: { min: 0.001, max: 50 },
  changeUsd: { min: 1, max: 1e9 },
  withinDays: { min: 1, max: 30 },
  aboveUsdc: { min: 0.01, max: 1e9 },
});

export const DEFAULT_WALLET_RULES: Readonly<WalletRules> = Object.freeze({
  liquidation: { enabled: true, belowPct: 10 },
  opened: true,
  closed: true,
  liquidated: true,
  balance: { enabled: false, changeUsd: 1000 },
  sessionKey: { enabled: true, withinDays: 3 },
  rewards: { enabled: false, aboveUsdc: 100 },
});

/** Why a wallet is watched; shown in alert messages. */
export const WATCH_ROLES = ['own', 'follow', 'team', 'client'] as const;
export type WatchRole = (typeof WATCH_ROLES)[number];

/** Deep-merges a partial update into complete rules (objects merge one level down; scalars replace). */
export function mergeWalletRules(base: WalletRules, patch: WalletRulesPatch | undefined): WalletRules {
  if (!patch) return structuredClone(base);
  return {
    liquidation: { ...base.liquidation, ...patch.liquidation },
    opened: patch.opened ?? base.opened,
    closed: patch.closed ?? base.closed,
    liquidated: patch.liquidated ?? base.liquidated,
    balance: { ...base.balance, ...patch.balance },
    sessionKey: { ...base.sessionKey, ...patch.sessionKey },
    rewards: { ...base.rewards, ...patch.rewards },
  };
}
