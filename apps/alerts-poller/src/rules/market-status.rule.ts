import type { ProtocolRules } from '@paper/contracts';
import type { MarketName, MarketsData } from '../tool-api/tool-data';
import type { RuleAlert } from './rule-types';

/** Trading status per market as last observed: `open`, `paused` or `close-only`. */
export type MarketStatusMap = Partial<Record<MarketName, string>>;

export interface MarketStatusChange {
  market: MarketName;
  from: string;
  to: string;
}

/** A market's effective status: `paused` whenever exchange-wide trading is off. */
export function effectiveStatus(entry: MarketsData['markets'][number], tradingEnabled: boolean): string {
  if (!tradingEnabled) return 'paused';
  return entry.open ? 'open' : entry.status === 'open' ? 'paused' : entry.status;
}

/** Compares the observed statuses with the previous ones; the first observation only records them. */
export function marketStatusChanges(prev: MarketStatusMap | undefined, markets: MarketsData): { statuses: MarketStatusMap; changes: MarketStatusChange[] } {
  const statuses: MarketStatusMap = {};
  const changes: MarketStatusChange[] = [];
  for (const entry of markets.markets) {
    const to = effectiveStatus(entry, markets.tradingEnabled);
    statuses[entry.market] = to;
    const from = prev?.[entry.market];
    if (from !== undefined && from !== to) changes.push({ market: entry.market, from, to });
  }
  return { statuses, changes };
}

/** One alert per change of a market the account follows; the change's observation time is part of the key. */
export function marketStatusAlerts(rules: ProtocolRules, changes: readonly MarketStatusChange[], observedAt: Date): RuleAlert[] {
  if (!rules.marketStatus.enabled) return [];
  return changes
    .filter((c) => rules.marketStatus.markets.includes(c.market))
    .map((c) => ({
      kind: 'market_status' as const,
      episodeKey: `${c.market}:${c.from}->${c.to}:${observedAt.toISOString()}`,
      occurredAt: observedAt,
      details: { market: c.market, from: c.from, to: c.to },
    }));
}
