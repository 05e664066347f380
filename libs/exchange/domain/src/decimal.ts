import { Rational, mulTrunc, rational } from './rational';

/**
 * Decimal parsing and fixed-point conversions.
 *
 * Money is integer micro-USDC (`bigint`, 1 USDC = 1_000_000n). Prices are integers at the market's
 * price scale (BTC: price x 10, ETH: price x 100). Every conversion from a decimal to an integer
 * truncates toward zero, like every other division in this library.
 */
export const USDC_DECIMALS = 6;
export const MICRO_PER_USDC = 1_000_000n;

const DECIMAL_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Parses a decimal string ("814.598", "-0.000476", "1e6", "1.5E-3") or a finite number into an exact
 * rational. Numbers are read through their shortest round-trip decimal form (`String(n)`), so
 * `0.1` becomes exactly 1/10. Throws a RangeError for anything that is not a finite decimal.
 */
export function parseDecimal(value: string | number): Rational {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new RangeError(`Not a finite number: ${value}`);
  }
  const text = String(value).trim();
  const match = DECIMAL_PATTERN.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) {
    throw new RangeError(`Not a decimal number: "${text}"`);
  }
  const [, sign, whole, frac = '', exp = '0'] = match;
  const digits = BigInt(`${whole}${frac}` || '0');
  const exponent = Number(exp) - frac.length;
  const signed = sign === '-' ? -digits : digits;
  return exponent >= 0 ? rational(signed * 10n ** BigInt(exponent)) : rational(signed, 10n ** BigInt(-exponent));
}

/** `value` as an integer with `decimals` implied fractional digits, truncated toward zero. */
export function decimalToScaled(value: string | number, decimals: number): bigint {
  assertDecimals(decimals);
  return mulTrunc(10n ** BigInt(decimals), parseDecimal(value));
}

/** The decimal string of an integer with `decimals` implied fractional digits, without trailing zeros. */
export function scaledToDecimal(value: bigint, decimals: number): string {
  assertDecimals(decimals);
  const negative = value < 0n;
  const magnitude = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = magnitude.slice(0, magnitude.length - decimals);
  const frac = magnitude.slice(magnitude.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** USDC amount (e.g. `10.5` or `"9.999999"`) to micro-USDC, truncating beyond 6 decimals. */
export function usdcToMicro(usdc: string | number): bigint {
  return decimalToScaled(usdc, USDC_DECIMALS);
}

/** Micro-USDC to a USDC decimal string ("10", "9.999999", "-1.5"). */
export function microToUsdc(micro: bigint): string {
  return scaledToDecimal(micro, USDC_DECIMALS);
}

/** Whole USDC to micro-USDC: `usdc(10_000)` is 10,000 USDC. */
export function usdc(whole: number | bigint): bigint {
  if (typeof whole === 'number' && !Number.isSafeInteger(whole)) {
    throw new RangeError(`usdc() takes a whole number, got ${whole}`);
  }
  return BigInt(whole) * MICRO_PER_USDC;
}

/** A price (e.g. `65000.15`) to an integer at the market scale (`priceDecimals` 1 for BTC, 2 for ETH). */
export function priceToScaled(price: string | number, priceDecimals: number): bigint {
  return decimalToScaled(price, priceDecimals);
}

/** A scaled integer price back to its decimal string. */
export function scaledToPrice(scaled: bigint, priceDecimals: number): string {
  return scaledToDecimal(scaled, priceDecimals);
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36) {
    throw new RangeError(`decimals must be an integer in 0..36, got ${decimals}`);
  }
}

/** Micro-USDC for people: thousands grouped, trailing zeros trimmed ("10,000", "9.999999", "-1,250.5"). */
export function formatUsdc(micro: bigint): string {
  const text = microToUsdc(micro);
  const negative = text.startsWith('-');
  const [whole, frac] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${frac ? `.${frac}` : ''}`;
}
