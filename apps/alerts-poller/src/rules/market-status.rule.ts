import type { ProtocolRules } from '@paper/contracts';
import type { MarketName, MarketsData } from '../tool-api/tool-data';
import type { RuleAlert } from './rule-types';

/** Trading status per market as last observed: `open`, `paused` or `close-only`. */
export type MarketStatusMap = Partial<Record<MarketName, string>>;

/** How many status changes of each market have been observed so far (never reset). */
export type MarketTransitions = Partial<Record<MarketName, number>>;

export interface MarketStatusChange {
  market: MarketName;
  from: string;
  to: string;
  /** The change's number for its market (1, 2, ...): with the market it names the transition. */
  seq: number;
}

/** A market's effective status: `paused` whenever exchange-wide trading is off. */
export function effectiveStatus(entry: MarketsData['markets'][number], tradingEnabled: boolean): string {
  if (!tradingEnabled) return 'paused';
  return entry.open ? 'open' : entry.status === 'open' ? 'paused' : entry.status;
}

/**
 * Compares the observed statuses with the previous ones; the first observation only records them.
 * Each change gets the next number of its market, so two passes that observe the same transition from
 * the same stored state name it the same way (and produce the same event id).
 */
export function marketStatusChanges(
  prev: MarketStatusMap | undefined,
  markets: MarketsData,
  transitions: MarketTransitions = {},
): { statuses: MarketStatusMap; changes: MarketStatusChange[]; transitions: MarketTransitions } {
  const statuses: MarketStatusMap = {};
  const changes: MarketStatusChange[] = [];
  const counted: MarketTransitions = { ...transitions };
  for (const entry of markets.markets) {
    const to = effectiveStatus(entry, markets.tradingEnabled);
    statuses[entry.market] = to;
    const from = prev?.[entry.market];
    if (from !== undefined && from !== to) {
      const seq = (counted[entry.market] ?? 0) + 1;
      counted[entry.market] = seq;
      changes.push({ market: entry.market, from, to, seq });
    }
  }
  return { statuses, changes, transitions: counted };
}

/** One alert per change of a market the account follows; the key is the market's transition (number, from, to). */
export function marketStatusAlerts(
  rules: ProtocolRules,
  changes: readonly MarketStatusChange[],
  observedAt: Date,
): RuleAlert[] {
  if (!rules.marketStatus.enabled) return [];
  return changes
    .filter((c) => rules.marketStatus.markets.includes(c.market))
    .map((c) => ({
      kind: 'market_status' as const,
      episodeKey: `${c.market}:${c.seq}:${c.from}->${c.to}`,
      occurredAt: observedAt,
      details: { market: c.market, from: c.from, to: c.to },
    }));
}
