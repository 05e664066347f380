import { priceToScaled } from './decimal';

/**
 * Entry, exit and mark price: the upstream mid = floor((bestBid + bestAsk) / 2) at the market price
 * scale. Both inputs are non-negative, so BigInt truncation equals floor.
 */
export function midPrice(bestBid: bigint, bestAsk: bigint): bigint {
  if (bestBid < 0n || bestAsk < 0n) throw new RangeError('Bid and ask must not be negative');
  return (bestBid + bestAsk) / 2n;
}

/**
 * Mid from the venue's decimal strings ("65000.15"): each side is first put on the market scale
 * (truncating extra digits toward zero), then averaged with {@link midPrice}.
 */
export function midPriceFromDecimals(
  bestBid: string | number,
  bestAsk: string | number,
  priceDecimals: number,
): bigint {
  return midPrice(priceToScaled(bestBid, priceDecimals), priceToScaled(bestAsk, priceDecimals));
}
