import { MARKET_NAMES } from '@paper/markets';

/**
 * Protocol-wide rules of an alerts account: reward-token mint-rate threshold and market status changes.
 * Set as a whole by `PUT /api/protocol-rules`; evaluated by the poller.
 */
export interface ProtocolRules {
  /** Alert when more reward tokens than `thresholdPerHour` were minted over the last hour. */
  mintRate: { enabled: boolean; thresholdPerHour: number };
  /** Alert when one of `markets` opens or closes for trading. */
  marketStatus: { enabled: boolean; markets: ProtocolMarket[] };
}

export const PROTOCOL_MARKETS = MARKET_NAMES;
export type ProtocolMarket = (typeof PROTOCOL_MARKETS)[number];

export const PROTOCOL_RULE_RANGES = Object.freeze({
  thresholdPerHour: { min: 1, max: 1e12 },
});

export const DEFAULT_PROTOCOL_RULES: Readonly<ProtocolRules> = Object.freeze({
  mintRate: { enabled: false, thresholdPerHour: 10_000 },
  marketStatus: { enabled: false, markets: [...PROTOCOL_MARKETS] },
});
