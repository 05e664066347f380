import { DEFAULT_WALLET_RULES, mergeWalletRules, type WalletRules, type WalletRulesPatch } from '@paper/contracts';

/** Test fixtures: a watch's rules, the defaults with a patch (tool data: testing/tool-fixtures.ts). */
export function rules(patch: WalletRulesPatch = {}): WalletRules {
  return mergeWalletRules(DEFAULT_WALLET_RULES, patch);
}
