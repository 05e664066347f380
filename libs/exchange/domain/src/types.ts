/** The exchange's two markets. */
export type Market = 'BTC' | 'ETH';

/** Direction of a position. */
export type Side = 'long' | 'short';

export const MARKETS: readonly Market[] = ['BTC', 'ETH'];
export const SIDES: readonly Side[] = ['long', 'short'];

export function isMarket(value: unknown): value is Market {
  return value === 'BTC' || value === 'ETH';
}

export function isSide(value: unknown): value is Side {
  return value === 'long' || value === 'short';
}
