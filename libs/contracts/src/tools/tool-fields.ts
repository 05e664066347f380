import { z } from 'zod';
import { MARKET_NAMES } from '@paper/markets';

/** Field schemas shared by several tools: the patterns and enumerations of the contract. */
export { MARKET_NAMES, type MarketName } from '@paper/markets';
export const SIDE_NAMES = ['long', 'short'] as const;
export const WINDOWS = ['24h', '7d', '30d', 'all'] as const;
export const CHART_INTERVALS = [
  '1m',
  '3m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '8h',
  '12h',
  '1d',
  '3d',
  '1w',
  '1M',
] as const;
export const PORTFOLIO_RANGES = ['1h', '1d', '1w', 'all'] as const;
export const LEADERBOARD_SORT_KEYS = [
  'rank',
  'address',
  'lastActiveTs',
  'totalWindowedPnl',
  'realizedPnl',
  'currentUnrealizedPnl',
  'currentBalance',
  'currentQueued',
  'currentOpenNotional',
  'totalVolume',
  'paperTotal',
  'currentOpenPositionCount',
] as const;

export const WALLET_PATTERN = /^0x[0-9a-fA-F]{40}$/;
export const INTENT_ID_PATTERN = /^0x[0-9a-fA-F]{64}$/;
export const POSITION_ID_PATTERN = /^\d+$/;

export const marketField = z.enum(MARKET_NAMES).describe('Market: BTC or ETH.');
export const sideField = z.enum(SIDE_NAMES).describe('long profits when the price rises, short when it falls.');
export const walletField = z
  .string()
  .regex(WALLET_PATTERN, 'must be a 0x address of 40 hex digits')
  .describe('Wallet address (0x + 40 hex).');
export const optionalWalletField = walletField
  .optional()
  .describe('Wallet address (0x + 40 hex). Defaults to the connected wallet; any wallet can be inspected.');
export const intentIdField = z
  .string()
  .regex(INTENT_ID_PATTERN, 'must be 0x + 64 hex digits')
  .describe('Intent id (0x + 64 hex).');
export const positionIdField = z
  .string()
  .regex(POSITION_ID_PATTERN, 'must be a string of digits')
  .describe('Position id (digits).');
/** A client's key for one write (1 to 255 visible ASCII characters, as an `Idempotency-Key` header may be). */
export const CLIENT_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const clientOrderIdField = z
  .string()
  .regex(CLIENT_KEY_PATTERN, 'must be 1 to 255 visible ASCII characters')
  .describe(
    'Your own key for this call, unique per wallet (a UUID is a good choice). A retry with the same key and the ' +
      'same arguments returns the first answer (marked as a replay) and never trades twice; the same key with other ' +
      'arguments is refused with idempotency_key_mismatch. Keys are kept 24 hours. On REST the Idempotency-Key ' +
      'header is the same key.',
  );
export const windowField = z.enum(WINDOWS).default('24h').describe('Time window: 24h, 7d, 30d or all.');
/** The largest margin a tool argument may name: the exchange's largest position (10,000,000 USDC of notional) at 1x. */
export const MAX_MARGIN_USD = 10_000_000;
/**
 * The largest price a tool argument may name: far above any market's price, and small enough that every
 * amount derived from it (notional, PnL at the bust or exit price) stays finite and exact in the engine's
 * integers and in the JSON numbers of the results.
 */
export const MAX_PRICE = 100_000_000;

/** Decimal places of a number as written in JSON (`12.5` -> 1, `1e-7` -> 7). */
export function decimalPlaces(value: number): number {
  const [mantissa = '', exponent = '0'] = String(value).toLowerCase().split('e');
  return Math.max(0, (mantissa.split('.')[1] ?? '').length - Number(exponent));
}

export const marginUsdField = z
  .number()
  .positive()
  .max(MAX_MARGIN_USD)
  .refine(
    (v) => decimalPlaces(v) <= 6,
    'must have at most 6 decimals (0.000001 USDC, one micro-USDC, is the smallest amount)',
  )
  .describe(
    `Margin in USDC: the most this position can lose. Greater than 0, at most ` +
      `${MAX_MARGIN_USD.toLocaleString('en-US')}, at most 6 decimals.`,
  );
export const leverageField = z.number().int().min(1).max(1000).describe('Leverage, a whole number from 1 to 1000.');
export const priceField = z.number().positive().max(MAX_PRICE);

/** A USDC amount in `data`: a number with at most 6 decimals. */
export const usd = z.number();
/** A price in `data`: a number at the market's precision (BTC 0.1, ETH 0.01). */
export const price = z.number();
/** The terms of a position in `data`, in the order every tool lists them. */
export const positionTerms = {
  market: marketField,
  side: sideField,
  marginUsd: usd,
  leverage: z.number().int(),
  notionalUsd: usd,
  entryPrice: price,
};
/** An instant in `data`: ISO 8601 UTC. */
export const isoTime = z.string();
export const nullableIso = z.string().nullable();

export const guardrailsData = z
  .object({
    maxMarginPerTradeUsd: z.number().nullable(),
    maxLeverage: z.number().int().nullable(),
    maxDailyNotionalUsd: z.number().nullable(),
    maxOpenPositions: z.number().int().nullable(),
    allowedMarkets: z.array(z.enum(MARKET_NAMES)).nullable(),
    requireConfirmation: z.boolean(),
  })
  .describe('Limits the wallet owner set when approving the session key; null means no limit.');
