/**
 * Leverage is an integer (1..maxLeverage, checked by the opening checks). These helpers take it as a
 * `number` or `bigint` and refuse anything that is not a positive integer.
 */
export function leverageToBigInt(leverage: number | bigint): bigint {
  if (typeof leverage === 'bigint') {
    if (leverage <= 0n) throw new RangeError(`Leverage must be a positive integer, got ${leverage}`);
    return leverage;
  }
  if (!Number.isSafeInteger(leverage) || leverage <= 0) {
    throw new RangeError(`Leverage must be a positive integer, got ${leverage}`);
  }
  return BigInt(leverage);
}

/** Notional (margin x leverage) in micro-USDC. */
export function notionalMicro(marginMicro: bigint, leverage: number | bigint): bigint {
  return marginMicro * leverageToBigInt(leverage);
}
