/**
 * Exact rational numbers over bigint. Fractional constants of the exchange (bust buffer, win-curve
 * parameters, reward curve) are evaluated with these, never with floats.
 *
 * A Rational is always normalised: `den > 0n` and `gcd(|num|, den) === 1n`.
 */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

export function gcd(a: bigint, b: bigint): bigint {
  let x = abs(a);
  let y = abs(b);
  while (y !== 0n) {
    [x, y] = [y, x % y];
  }
  return x;
}

/** Builds a normalised rational `num / den`. Throws a RangeError when `den` is zero. */
export function rational(num: bigint, den: bigint = 1n): Rational {
  if (den === 0n) throw new RangeError('Rational denominator must not be zero');
  const sign = den < 0n ? -1n : 1n;
  const divisor = gcd(num, den) || 1n;
  return { num: (sign * num) / divisor, den: (sign * den) / divisor };
}

export const ZERO: Rational = rational(0n);
export const ONE: Rational = rational(1n);

export function add(a: Rational, b: Rational): Rational {
  return rational(a.num * b.den + b.num * a.den, a.den * b.den);
}

export function sub(a: Rational, b: Rational): Rational {
  return rational(a.num * b.den - b.num * a.den, a.den * b.den);
}

export function mul(a: Rational, b: Rational): Rational {
  return rational(a.num * b.num, a.den * b.den);
}

export function div(a: Rational, b: Rational): Rational {
  if (b.num === 0n) throw new RangeError('Division by a zero rational');
  return rational(a.num * b.den, a.den * b.num);
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compare(a: Rational, b: Rational): -1 | 0 | 1 {
  const diff = a.num * b.den - b.num * a.den;
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
}

export function min(a: Rational, b: Rational): Rational {
  return compare(a, b) <= 0 ? a : b;
}

export function max(a: Rational, b: Rational): Rational {
  return compare(a, b) >= 0 ? a : b;
}

/** Clamps `value` into `[low, high]`. */
export function clamp(value: Rational, low: Rational, high: Rational): Rational {
  return min(max(value, low), high);
}

/**
 * `value * r`, truncated toward zero (BigInt division truncates toward zero, as an on-chain
 * integer division does).
 */
export function mulTrunc(value: bigint, r: Rational): bigint {
  return (value * r.num) / r.den;
}

/** Decimal representation truncated toward zero after `digits` fractional digits, trailing zeros kept. */
export function toFixedString(r: Rational, digits: number): string {
  if (!Number.isInteger(digits) || digits < 0) throw new RangeError('digits must be a non-negative integer');
  const scale = 10n ** BigInt(digits);
  const scaled = (r.num * scale) / r.den;
  const negative = scaled < 0n;
  const magnitude = abs(scaled)
    .toString()
    .padStart(digits + 1, '0');
  const whole = magnitude.slice(0, magnitude.length - digits);
  const frac = magnitude.slice(magnitude.length - digits);
  return `${negative ? '-' : ''}${whole}${digits > 0 ? `.${frac}` : ''}`;
}

/** Like {@link toFixedString} but without trailing fractional zeros ("0.5", "12", "-0.000476"). */
export function toDecimalString(r: Rational, maxDigits = 12): string {
  const fixed = toFixedString(r, maxDigits);
  if (!fixed.includes('.')) return fixed;
  const trimmed = fixed.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}

/** Nearest double, for display only: never feed the result back into money arithmetic. */
export function toNumber(r: Rational, digits = 12): number {
  return Number(toFixedString(r, digits));
}
