import { DEFAULT_WALLET_RULES, mergeWalletRules, type WalletRules, type WalletRulesPatch } from '@paper/contracts';
import type { AccountData, AccountPosition } from '../tool-api/tool-data';

/** Test fixtures: rules and get_account results shaped like the tool catalog's output schema. */
export function rules(patch: WalletRulesPatch = {}): WalletRules {
  return mergeWalletRules(DEFAULT_WALLET_RULES, patch);
}

export function position(id: string, overrides: Partial<AccountPosition> = {}): AccountPosition {
  return {
    positionId: id,
    market: 'BTC',
    side: 'long',
    marginUsd: 100,
    leverage: 100,
    notionalUsd: 10_000,
    entryPrice: 100_000,
    markPrice: 100_000,
    bustPrice: 99_047.6,
    estimatedPnlUsd: 0,
    estimatedPnlPercent: 0,
    liquidationDistancePercent: 0.9524,
    liquidationRiskPercent: 0,
    openedAt: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function account(overrides: Partial<AccountData> = {}): AccountData {
  return {
    wallet: '0x52908400098527886e0f7030069857d2e4169ee7',
    exists: true,
    displayName: null,
    freeUsd: 900,
    lockedUsd: 100,
    queuedUsd: 0,
    unrealizedPnlUsd: 0,
    equityUsd: 1000,
    paper: 0,
    paperStaked: 0,
    positions: [],
    pendingIntents: [],
    sessionKeys: [],
    lifetime: {
      realizedPnlUsd: 0,
      volumeUsd: 0,
      feesPaidUsd: 0,
      stakingRewardsUsd: 0,
      trades: 0,
      wins: 0,
      losses: 0,
      liquidations: 0,
    },
    ...overrides,
  };
}
