// Math functions held locally: hot loops stay fast in sandboxed runtimes (jest) too.
const { round, max, abs } = Math;

/**
 * Best bid and ask in integer ticks around a mid, 1 or 2 ticks wide, chosen so that (bid + ask) / 2 is the
 * mid rounded to half a tick. Prices are formatted from integers, never from float arithmetic.
 */
export interface TickQuote {
  bid: number;
  ask: number;
}

/** The quote whose mid is `mid` rounded to half a tick (at least 2 ticks above zero). */
export function quoteAround(mid: number, priceDecimals: number): TickQuote {
  const halfTicks = max(4, round(mid * 10 ** priceDecimals * 2));
  if (halfTicks % 2 === 0) {
    const centre = halfTicks / 2;
    return { bid: centre - 1, ask: centre + 1 };
  }
  return { bid: (halfTicks - 1) / 2, ask: (halfTicks + 1) / 2 };
}

/** bid + ask: the mid in half ticks. */
export const midHalfTicks = (q: TickQuote): number => q.bid + q.ask;

/** The numeric mid of a quote (for the random walk's bookkeeping only). */
export const quoteMid = (q: TickQuote, priceDecimals: number): number => (q.bid + q.ask) / 2 / 10 ** priceDecimals;

/** An integer at `decimals` decimal places as a decimal string, e.g. (1000001, 1) -> "100000.1". */
export function formatScaled(value: number, decimals: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a safe integer: ${value}`);
  if (decimals === 0) return String(value);
  const digits = String(abs(value)).padStart(decimals + 1, '0');
  return `${value < 0 ? '-' : ''}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** A price in ticks, with the market's decimals. */
export const formatTicks = (ticks: number, priceDecimals: number): string => formatScaled(ticks, priceDecimals);

/** A mid in half ticks: one more decimal when it falls between ticks ("100000.15"), else the tick decimals. */
export function formatHalfTicks(halfTicks: number, priceDecimals: number): string {
  const text = formatScaled(halfTicks * 5, priceDecimals + 1);
  return text.endsWith('0') ? text.slice(0, -1) : text;
}
