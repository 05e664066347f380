import type { WalletRules } from '@paper/contracts';
import type { AccountData } from '../tool-api/tool-data';
import { ARMED, DEFAULT_REARM_MARGIN, type Episode, type RuleAlert, stepEpisode, usdToMicro } from './rule-types';

/** Rule state `rewards`. */
export interface RewardsState extends Episode {
  enabled: boolean;
}

/**
 * Rewards above `aboveUsdc`: the wallet's winnings waiting in the payout queue (`queuedUsd`, USDC;
 * paid out by the exchange's harvest). Fires once when they exceed the threshold and re-arms when
 * they are back at or below `aboveUsdc * (1 - margin)`. First evaluation and rule turn-on are silent.
 */
export function evaluateRewards(
  prev: RewardsState | undefined,
  rules: WalletRules,
  account: AccountData,
  margin = DEFAULT_REARM_MARGIN,
): { state: RewardsState; alerts: RuleAlert[] } {
  const enabled = rules.rewards.enabled;
  const silent = !prev || !prev.enabled || !enabled;
  const value = usdToMicro(account.queuedUsd);
  const above = usdToMicro(rules.rewards.aboveUsdc);
  const rearmAt = usdToMicro(rules.rewards.aboveUsdc * (1 - margin));
  const { next, fired } = stepEpisode(prev ?? ARMED, value > above, value <= rearmAt, silent);
  const alerts: RuleAlert[] = fired
    ? [
        {
          kind: 'rewards',
          episodeKey: String(next.episode),
          occurredAt: new Date(),
          details: {
            queuedUsd: account.queuedUsd,
            aboveUsdc: rules.rewards.aboveUsdc,
            paper: account.paper,
            paperStaked: account.paperStaked,
          },
        },
      ]
    : [];
  return { state: { enabled, ...next }, alerts };
}
