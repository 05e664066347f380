import { isMarketName, MARKET_NAMES, type MarketName } from '@paper/markets';

/** The exchange's markets. */
export type Market = MarketName;

/** Direction of a position. */
export type Side = 'long' | 'short';

export const MARKETS: readonly Market[] = MARKET_NAMES;
export const SIDES: readonly Side[] = ['long', 'short'];

export const isMarket: (value: unknown) => value is Market = isMarketName;

export function isSide(value: unknown): value is Side {
  return value === 'long' || value === 'short';
}
