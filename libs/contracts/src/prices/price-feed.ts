import type { MarketName } from '@paper/markets';

/**
 * The latest prices in Redis, written by trading-executor's price ingest and read by every reader.
 * Prices are integers at the market's price scale (BTC x10, ETH x100), as decimal strings.
 */
export interface PriceTick {
  market: MarketName;
  bid: string;
  ask: string;
  /** floor((bid + ask) / 2): entry, exit and mark price. */
  mid: string;
  /** Milliseconds since the epoch when the venue quoted it. */
  ts: number;
}

/** Hash with the fields of PriceTick for one market. */
export const priceKey = (prefix: string, market: string): string => `${prefix}:prices:${market}`;

/** Pub/sub channel: one JSON PriceTick message per ingested price. */
export const priceTickChannel = (prefix: string): string => `${prefix}:prices:ticks`;
