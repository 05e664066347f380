import { usdc } from './decimal';
import { Market } from './types';

/** Market flag: `open` trades normally, `paused` refuses everything, `close-only` refuses opens. */
export type MarketStatus = 'open' | 'paused' | 'close-only';

/**
 * Win-curve parameters as exact decimal strings (parsed to rationals where used, never to floats).
 * keep = (1 - baseRate) / (1 + 1/(x * rateMultiplier) + referenceNotional/(1e6 * x * positionMultiplier))
 */
export interface WinCurveParams {
  readonly baseRate: string;
  readonly rateMultiplier: string;
  readonly referenceNotional: string;
  readonly positionMultiplier: string;
  /** Share of the haircut-adjusted win taken as protocol fees. */
  readonly winFee: string;
}

/** Per-market configuration. Amounts are micro-USDC, prices are integers at `priceScale`. */
export interface MarketConfig {
  readonly market: Market;
  /** Fractional digits of the integer price: 1 for BTC (price x 10), 2 for ETH (price x 100). */
  readonly priceDecimals: number;
  /** `10n ** priceDecimals`. */
  readonly priceScale: bigint;
  readonly minLeverage: number;
  readonly maxLeverage: number;
  readonly minMarginMicro: bigint;
  /** Minimum margin x leverage. */
  readonly minNotionalMicro: bigint;
  /** Maximum margin x leverage of one position. */
  readonly maxNotionalMicro: bigint;
  /** Bust buffer b as a decimal string ("0.000476"). */
  readonly bustBuffer: string;
  /** d = floor(E / deadbandDivisor): 50000 gives 0.2 bp. */
  readonly deadbandDivisor: bigint;
  readonly winCurve: WinCurveParams;
  /** Open-interest caps on total notional per side; `null` means no cap. */
  readonly longOpenInterestCapMicro: bigint | null;
  readonly shortOpenInterestCapMicro: bigint | null;
  readonly status: MarketStatus;
}

const COMMON = {
  minLeverage: 1,
  maxLeverage: 1000,
  minMarginMicro: usdc(10),
  minNotionalMicro: usdc(10_000),
  maxNotionalMicro: usdc(10_000_000),
  deadbandDivisor: 50_000n,
  longOpenInterestCapMicro: null,
  shortOpenInterestCapMicro: null,
  status: 'open',
} as const;

const COMMON_WIN_CURVE = {
  baseRate: '0.10',
  rateMultiplier: '15000',
  referenceNotional: '100000',
  winFee: '0.02',
} as const;

export const BTC_MARKET_CONFIG: MarketConfig = Object.freeze({
  ...COMMON,
  market: 'BTC',
  priceDecimals: 1,
  priceScale: 10n,
  bustBuffer: '0.000476',
  winCurve: Object.freeze({ ...COMMON_WIN_CURVE, positionMultiplier: '814.598' }),
});

export const ETH_MARKET_CONFIG: MarketConfig = Object.freeze({
  ...COMMON,
  market: 'ETH',
  priceDecimals: 2,
  priceScale: 100n,
  bustBuffer: '0.00048',
  winCurve: Object.freeze({ ...COMMON_WIN_CURVE, positionMultiplier: '483.979' }),
});

export const DEFAULT_MARKET_CONFIGS: Readonly<Record<Market, MarketConfig>> = Object.freeze({
  BTC: BTC_MARKET_CONFIG,
  ETH: ETH_MARKET_CONFIG,
});

/** The default configuration of `market`, optionally with some fields overridden. */
export function marketConfig(market: Market, overrides: Partial<Omit<MarketConfig, 'market'>> = {}): MarketConfig {
  const base = DEFAULT_MARKET_CONFIGS[market];
  const merged: MarketConfig = { ...base, ...overrides, market };
  if (overrides.priceDecimals !== undefined && overrides.priceScale === undefined) {
    return { ...merged, priceScale: 10n ** BigInt(overrides.priceDecimals) };
  }
  return merged;
}
