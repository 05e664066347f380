import type { AssetCtx, L2Book, Level } from '@paper/upstream';
import type { MarketSpec } from '../markets/market-spec';
import { uniform } from '../prices/prng';
import { formatHalfTicks, formatTicks, midHalfTicks, type TickQuote } from '../prices/quote';

/** Levels per book side, as the venue sends. */
export const BOOK_DEPTH = 20;

/** A seeded book around the quote: best levels at the quote, then 1-3 ticks apart, sizes varying per tick. */
export function l2BookView(market: MarketSpec, q: TickQuote, seed: number, time: number, tickMs: number): L2Book {
  const step = Math.floor(time / tickMs);
  const side = (start: number, direction: 1 | -1, stream: number): Level[] => {
    const levels: Level[] = [];
    let px = start;
    for (let i = 0; i < BOOK_DEPTH && px > 0; i += 1) {
      const u = uniform(seed, market.salt * 100 + stream, step * BOOK_DEPTH + i);
      const size = market.avgTradeSize * (0.2 + 40 * u * u);
      levels.push({
        px: formatTicks(px, market.priceDecimals),
        sz: size.toFixed(market.szDecimals),
        n: 1 + Math.floor(u * 12),
      });
      px += direction * (1 + Math.floor(uniform(seed, market.salt * 100 + stream + 50, step * BOOK_DEPTH + i) * 3));
    }
    return levels;
  };
  return { coin: market.coin, time, levels: [side(q.bid, -1, 1), side(q.ask, 1, 2)] };
}

export function midView(market: MarketSpec, q: TickQuote): string {
  return formatHalfTicks(midHalfTicks(q), market.priceDecimals);
}

/** The asset context: mark = oracle = mid (no funding in this simulation), day volume from the path's volume. */
export function assetCtxView(
  market: MarketSpec,
  q: TickQuote,
  prevDayMidHalfTicks: number,
  dayBaseVolume: number,
): AssetCtx {
  const mid = midView(market, q);
  const midPx = Number(mid);
  return {
    funding: '0.0',
    openInterest: (market.volumePerMinute * 600).toFixed(market.szDecimals),
    prevDayPx: formatHalfTicks(prevDayMidHalfTicks, market.priceDecimals),
    dayNtlVlm: (dayBaseVolume * midPx).toFixed(2),
    premium: '0.0',
    oraclePx: mid,
    markPx: mid,
    midPx: mid,
    impactPxs: [formatTicks(q.bid, market.priceDecimals), formatTicks(q.ask, market.priceDecimals)],
    dayBaseVlm: dayBaseVolume.toFixed(market.szDecimals),
  };
}
