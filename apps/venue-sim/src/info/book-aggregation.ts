import type { L2Book, Level } from '@paper/upstream';
import type { MarketSpec } from '../markets/market-spec';
import { uniform } from '../prices/prng';
import { formatTicks, type TickQuote } from '../prices/quote';

/** `nSigFigs` and `mantissa` of an l2Book request: prices rounded to that many significant figures. */
export interface BookPrecision {
  nSigFigs?: 2 | 3 | 4 | 5 | null;
  mantissa?: 2 | 5 | null;
}

/**
 * The price step, in ticks, of a book aggregated to `nSigFigs` significant figures at price `ticks`
 * (`mantissa` 2 or 5 with 5 figures: steps of 2 or 5 in the last figure). 1 tick means full precision.
 */
export function aggregationStep(ticks: number, priceDecimals: number, precision: BookPrecision): number {
  if (!precision.nSigFigs) return 1;
  const digits = Math.floor(Math.log10(ticks / 10 ** priceDecimals)) + 1;
  const exponent = digits - precision.nSigFigs + priceDecimals;
  const step = (precision.nSigFigs === 5 && precision.mantissa ? precision.mantissa : 1) * 10 ** exponent;
  return Math.max(1, Math.round(step));
}

/**
 * The book at the requested precision: levels on multiples of the step (bids rounded down, asks up),
 * the best ones holding the top of the full-precision book, deeper ones sized in proportion to their
 * width, seeded like the full book so the same moment gives the same book.
 */
export function aggregateBook(
  book: L2Book,
  market: MarketSpec,
  q: TickQuote,
  precision: BookPrecision,
  seed: number,
  step: number,
): L2Book {
  const width = aggregationStep(q.ask, market.priceDecimals, precision);
  if (width === 1) return book;
  const side = (levels: Level[], direction: 1 | -1, stream: number): Level[] => {
    const best = direction === -1 ? Math.floor(q.bid / width) * width : Math.ceil(q.ask / width) * width;
    return Array.from({ length: levels.length }, (_, i) => {
      const px = best + direction * i * width;
      const inside = levels.filter((l) => {
        const ticks = Math.round(Number(l.px) * 10 ** market.priceDecimals);
        return direction === -1 ? ticks <= px + width - 1 && ticks >= px : ticks >= px - width + 1 && ticks <= px;
      });
      const u = uniform(seed, market.salt * 100 + stream, step * levels.length + i);
      const sz =
        inside.reduce((sum, l) => sum + Number(l.sz), 0) + market.avgTradeSize * Math.sqrt(width) * (0.5 + 4 * u);
      const n = inside.reduce((sum, l) => sum + l.n, 0) + 1 + Math.floor(u * Math.sqrt(width) * 3);
      return { px: formatTicks(px, market.priceDecimals), sz: sz.toFixed(market.szDecimals), n };
    }).filter((l) => Number(l.px) > 0);
  };
  return { coin: book.coin, time: book.time, levels: [side(book.levels[0], -1, 3), side(book.levels[1], 1, 4)] };
}
