import { formatUsdc } from './decimal';
import { GuardrailRefusalReason, Guardrails, checkGuardrails } from './guardrails';
import { MarketConfig } from './market-config';
import { Market, Side } from './types';

export type OpenRefusal =
  | 'trading_paused'
  | 'market_paused'
  | 'market_close_only'
  | 'leverage_out_of_range'
  | 'margin_below_minimum'
  | 'notional_below_minimum'
  | 'insufficient_balance'
  | 'notional_above_maximum'
  | 'open_interest_cap'
  | GuardrailRefusalReason;

export interface OpenCheckInput {
  readonly market: Market;
  readonly side: Side;
  readonly marginMicro: bigint;
  readonly leverage: number;
  /** The configuration of `market`. */
  readonly config: MarketConfig;
  /** The exchange-wide trading switch. */
  readonly tradingEnabled: boolean;
  /** Free balance the margin is taken from (queued winnings included, as the spec allows). */
  readonly availableBalanceMicro: bigint;
  /** Current total notional open on this side of this market. */
  readonly sideOpenInterestMicro: bigint;
  /** The session key's guardrails; `null` or omitted when none apply. */
  readonly guardrails?: Guardrails | null;
  readonly dailyNotionalUsedMicro?: bigint;
  readonly openPositionCount?: number;
}

export type OpenCheckResult =
  | { readonly ok: true; readonly notionalMicro: bigint }
  | { readonly ok: false; readonly reason: OpenRefusal; readonly message: string };

/**
 * Whether a position may be opened, checked in the spec's order: trading and market open; leverage
 * in range; margin minimum; notional minimum; margin within the available balance; notional maximum;
 * the side's open-interest headroom; then the owner's guardrails. The first failure is returned with
 * a message for the end user that says how to fix it.
 */
export function checkOpen(input: OpenCheckInput): OpenCheckResult {
  const { market, side, marginMicro, leverage, config } = input;
  if (config.market !== market) throw new RangeError(`Config for ${config.market} given for market ${market}`);

  if (!input.tradingEnabled) {
    return refuse(
      'trading_paused',
      'Trading is paused on the exchange, so no position can be opened right now; try again later.',
    );
  }
  if (config.status === 'paused') {
    return refuse('market_paused', `The ${market} market is paused; try again later or trade another market.`);
  }
  if (config.status === 'close-only') {
    return refuse(
      'market_close_only',
      `The ${market} market is close-only: open positions can be closed but no new ones opened; try again later or ` +
        `trade another market.`,
    );
  }
  if (!Number.isInteger(leverage) || leverage < config.minLeverage || leverage > config.maxLeverage) {
    return refuse(
      'leverage_out_of_range',
      `Leverage ${leverage}x is out of range; choose a whole number from ${config.minLeverage} to ` +
        `${config.maxLeverage}.`,
    );
  }
  const lev = BigInt(leverage);
  const notionalMicro = marginMicro * lev;
  const notionalText =
    `Notional ${formatUsdc(notionalMicro)} USDC ` + `(margin ${formatUsdc(marginMicro)} USDC x ${leverage}x)`;

  if (marginMicro < config.minMarginMicro) {
    return refuse(
      'margin_below_minimum',
      `Margin ${formatUsdc(marginMicro)} USDC is below the ${formatUsdc(config.minMarginMicro)} USDC minimum; use ` +
        `at least ${formatUsdc(config.minMarginMicro)} USDC.`,
    );
  }
  if (notionalMicro < config.minNotionalMicro) {
    const marginNeeded = ceilDiv(config.minNotionalMicro, lev);
    return refuse(
      'notional_below_minimum',
      `${notionalText} is below the ${formatUsdc(config.minNotionalMicro)} USDC minimum; ` +
        `raise the margin to at least ${formatUsdc(marginNeeded)} USDC at ${leverage}x, or raise the leverage.`,
    );
  }
  if (marginMicro > input.availableBalanceMicro) {
    const available = input.availableBalanceMicro > 0n ? input.availableBalanceMicro : 0n;
    return refuse(
      'insufficient_balance',
      `Margin ${formatUsdc(marginMicro)} USDC is more than your available balance of ${formatUsdc(available)} USDC; ` +
        `use at most ${formatUsdc(available)} USDC or deposit more.`,
    );
  }
  if (notionalMicro > config.maxNotionalMicro) {
    const marginAllowed = config.maxNotionalMicro / lev;
    return refuse(
      'notional_above_maximum',
      `${notionalText} is above the ${formatUsdc(config.maxNotionalMicro)} USDC maximum per position; ` +
        `use at most ${formatUsdc(marginAllowed)} USDC margin at ${leverage}x, or lower the leverage.`,
    );
  }
  const cap = side === 'long' ? config.longOpenInterestCapMicro : config.shortOpenInterestCapMicro;
  if (cap !== null && input.sideOpenInterestMicro + notionalMicro > cap) {
    const headroom = cap - input.sideOpenInterestMicro;
    return refuse(
      'open_interest_cap',
      `${notionalText} would exceed the ${market} ${side} open-interest cap of ${formatUsdc(cap)} USDC; ` +
        `only ${formatUsdc(headroom > 0n ? headroom : 0n)} USDC of ${side} notional is available, so lower the ` +
        `margin or leverage, or try later.`,
    );
  }
  if (input.guardrails) {
    const refusal = checkGuardrails({
      guardrails: input.guardrails,
      market,
      marginMicro,
      leverage,
      notionalMicro,
      dailyNotionalUsedMicro: input.dailyNotionalUsedMicro ?? 0n,
      openPositionCount: input.openPositionCount ?? 0,
    });
    if (refusal) return refuse(refusal.reason, refusal.message);
  }
  return { ok: true, notionalMicro };
}

function refuse(reason: OpenRefusal, message: string): OpenCheckResult {
  return { ok: false, reason, message };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
