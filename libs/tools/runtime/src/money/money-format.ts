import {
  DEFAULT_MARKET_CONFIGS,
  type Market,
  type Rational,
  formatUsdc,
  microToUsdc,
  scaledToPrice,
  toDecimalString,
} from '@paper/exchange';

/**
 * Numbers in `data` are derived from the integers of the exchange through their exact decimal text,
 * never through float arithmetic: USDC with at most 6 decimals, prices at the market's precision.
 */
export function usd(micro: bigint): number {
  return Number(microToUsdc(micro));
}

export function usdOrNull(micro: bigint | null | undefined): number | null {
  return micro === null || micro === undefined ? null : usd(micro);
}

export function priceDecimals(market: Market): number {
  return DEFAULT_MARKET_CONFIGS[market].priceDecimals;
}

export function px(scaled: bigint, market: Market): number {
  return Number(scaledToPrice(scaled, priceDecimals(market)));
}

/** A ratio (0.05) as a percent number (5) with at most `digits` decimals, truncated. */
export function percent(ratio: Rational, digits = 4): number {
  return Number(toDecimalString({ num: ratio.num * 100n, den: ratio.den }, digits));
}

/** `part / whole` in percent, or null when `whole` is zero. */
export function percentOf(part: bigint, whole: bigint, digits = 4): number | null {
  if (whole === 0n) return null;
  return percent({ num: whole < 0n ? -part : part, den: whole < 0n ? -whole : whole }, digits);
}

/** "1,250.5 USDC" for summaries. */
export function usdText(micro: bigint): string {
  return `${formatUsdc(micro)} USDC`;
}

/** "$65,000.1" for summaries. */
export function priceText(scaled: bigint, market: Market): string {
  const [whole, frac] = scaledToPrice(scaled, priceDecimals(market)).split('.');
  const grouped = (whole ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `$${grouped}${frac ? `.${frac}` : ''}`;
}

/** Signed USDC for summaries: "+12.5 USDC" / "-3 USDC". */
export function signedUsdText(micro: bigint): string {
  return `${micro > 0n ? '+' : ''}${usdText(micro)}`;
}

/** Integer micro from a numeric database value (bigint columns arrive as decimal text). */
export function toBig(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  if (typeof value === 'string' && value !== '') return BigInt(value.split('.')[0]!);
  return 0n;
}

export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
