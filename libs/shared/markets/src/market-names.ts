/**
 * The markets the exchange lists, by name. The one list behind the trading domain, the contracts (tool
 * fields, queue payloads, price feed, events), the alerts service and the tooling.
 */
export const MARKET_NAMES = ['BTC', 'ETH'] as const;

export type MarketName = (typeof MARKET_NAMES)[number];

/** Whether a string names a listed market. */
export function isMarketName(value: unknown): value is MarketName {
  return typeof value === 'string' && (MARKET_NAMES as readonly string[]).includes(value);
}
