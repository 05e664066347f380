import { MARKET_NAMES } from '@paper/markets';
import { z } from 'zod';

const scaledPrice = z.string().regex(/^\d+$/);

/**
 * The latest prices in Redis, written by trading-executor's price ingest and read by every reader.
 * Prices are integers at the market's price scale (BTC x10, ETH x100), as decimal strings. The Redis hash
 * holds every field as a string; the channel's JSON message carries `ts` as a number: both parse.
 */
export const priceTickSchema = z.object({
  market: z.enum(MARKET_NAMES),
  bid: scaledPrice,
  ask: scaledPrice,
  /** floor((bid + ask) / 2): entry, exit and mark price. */
  mid: scaledPrice,
  /** Milliseconds since the epoch when the venue quoted it. */
  ts: z.coerce.number().pipe(z.number().int().nonnegative()),
});

export type PriceTick = z.infer<typeof priceTickSchema>;

/** A tick as stored in the Redis hash (HGETALL) or published on the channel; null when absent or malformed. */
export function parsePriceTick(value: unknown): PriceTick | null {
  const parsed = priceTickSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** A message of the price tick channel; null when it is not JSON or not a tick. */
export function parsePriceTickMessage(message: string): PriceTick | null {
  try {
    return parsePriceTick(JSON.parse(message));
  } catch {
    return null;
  }
}

/** Hash with the fields of PriceTick for one market. */
export const priceKey = (prefix: string, market: string): string => `${prefix}:prices:${market}`;

/** Pub/sub channel: one JSON PriceTick message per ingested price. */
export const priceTickChannel = (prefix: string): string => `${prefix}:prices:ticks`;
