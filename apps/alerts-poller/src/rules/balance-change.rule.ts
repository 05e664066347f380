import type { WalletRules } from '@paper/contracts';
import type { AccountData } from '../tool-api/tool-data';
import { microToUsd, type RuleAlert, usdToMicro } from './rule-types';

/** Rule state `balance`: the balance the next change is measured from. */
export interface BalanceState {
  enabled: boolean;
  /** Integer micro-USDC as a decimal string. */
  baselineMicro: string;
  episode: number;
}

/** The account balance the rule watches: free + locked margin + queued winnings (unrealized PnL excluded). */
export function accountBalanceMicro(account: AccountData): bigint {
  return usdToMicro(account.freeUsd) + usdToMicro(account.lockedUsd) + usdToMicro(account.queuedUsd);
}

/**
 * Balance change of at least `changeUsd` from the baseline, either way. When it fires the baseline
 * moves to the new balance (the next alert needs another full change). The first evaluation, and the
 * first one after the rule is turned on, only set the baseline.
 */
export function evaluateBalanceChange(
  prev: BalanceState | undefined,
  rules: WalletRules,
  account: AccountData,
): { state: BalanceState; alerts: RuleAlert[] } {
  const enabled = rules.balance.enabled;
  const balance = accountBalanceMicro(account);
  if (!prev || !prev.enabled || !enabled) {
    return { state: { enabled, baselineMicro: balance.toString(), episode: prev?.episode ?? 0 }, alerts: [] };
  }
  const baseline = BigInt(prev.baselineMicro);
  const change = balance - baseline;
  const threshold = usdToMicro(rules.balance.changeUsd);
  if ((change < 0n ? -change : change) < threshold) return { state: { ...prev, enabled }, alerts: [] };
  const episode = prev.episode + 1;
  return {
    state: { enabled, baselineMicro: balance.toString(), episode },
    alerts: [
      {
        kind: 'balance_change',
        episodeKey: String(episode),
        occurredAt: new Date(),
        details: {
          previousUsd: microToUsd(baseline),
          currentUsd: microToUsd(balance),
          changeUsd: microToUsd(change),
          thresholdUsd: rules.balance.changeUsd,
          freeUsd: account.freeUsd,
          lockedUsd: account.lockedUsd,
          queuedUsd: account.queuedUsd,
        },
      },
    ],
  };
}
