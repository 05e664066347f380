import { type Market, marketConfig, midPrice, priceToScaled } from '@paper/exchange';
import type { PriceTick } from '@paper/contracts';

/** The venue's best bid/ask (decimal strings) as a tick at the market's integer price scale. */
export function toPriceTick(market: Market, quote: { bid: string; ask: string; time: number }): PriceTick {
  const { priceDecimals } = marketConfig(market);
  const bid = priceToScaled(quote.bid, priceDecimals);
  const ask = priceToScaled(quote.ask, priceDecimals);
  if (bid <= 0n || ask <= 0n || ask < bid)
    throw new RangeError(`Crossed or empty quote for ${market}: ${quote.bid} / ${quote.ask}`);
  return { market, bid: bid.toString(), ask: ask.toString(), mid: midPrice(bid, ask).toString(), ts: quote.time };
}
