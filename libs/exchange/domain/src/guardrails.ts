import { formatUsdc, usdcToMicro } from './decimal';
import { Market } from './types';

/**
 * Limits the wallet owner sets when approving a session key. `null` means no limit. USD amounts are
 * decimal strings so they survive JSON unchanged.
 */
export interface Guardrails {
  readonly maxMarginPerTradeUsd: string | null;
  readonly maxLeverage: number | null;
  readonly maxDailyNotionalUsd: string | null;
  readonly maxOpenPositions: number | null;
  readonly allowedMarkets: readonly Market[] | null;
  /** Each open must present a preview quote (on by default). */
  readonly requireConfirmation: boolean;
}

export const DEFAULT_GUARDRAILS: Guardrails = Object.freeze({
  maxMarginPerTradeUsd: null,
  maxLeverage: null,
  maxDailyNotionalUsd: null,
  maxOpenPositions: null,
  allowedMarkets: null,
  requireConfirmation: true,
});

export type GuardrailRefusalReason =
  | 'guardrail_max_margin'
  | 'guardrail_max_leverage'
  | 'guardrail_daily_notional'
  | 'guardrail_max_positions'
  | 'guardrail_market_not_allowed';

export interface GuardrailRefusal {
  readonly reason: GuardrailRefusalReason;
  readonly message: string;
}

export interface GuardrailCheckInput {
  readonly guardrails: Guardrails;
  readonly market: Market;
  readonly marginMicro: bigint;
  readonly leverage: number;
  readonly notionalMicro: bigint;
  /** Notional already opened today under these guardrails. */
  readonly dailyNotionalUsedMicro: bigint;
  readonly openPositionCount: number;
}

const RAISE = 'or ask the wallet owner to raise the limit';

/** The first guardrail an open would break, in the order of the reasons above, or `null`. */
export function checkGuardrails(input: GuardrailCheckInput): GuardrailRefusal | null {
  const { guardrails: g, market, marginMicro, leverage, notionalMicro } = input;

  if (g.maxMarginPerTradeUsd !== null) {
    const maxMargin = usdcToMicro(g.maxMarginPerTradeUsd);
    if (marginMicro > maxMargin) {
      return refuse(
        'guardrail_max_margin',
        `Margin ${formatUsdc(marginMicro)} USDC is above your guardrail of ${formatUsdc(maxMargin)} USDC per trade; ` +
          `use at most ${formatUsdc(maxMargin)} USDC ${RAISE}.`,
      );
    }
  }
  if (g.maxLeverage !== null && leverage > g.maxLeverage) {
    return refuse(
      'guardrail_max_leverage',
      `Leverage ${leverage}x is above your guardrail of ${g.maxLeverage}x; use at most ${g.maxLeverage}x ${RAISE}.`,
    );
  }
  if (g.maxDailyNotionalUsd !== null) {
    const maxDaily = usdcToMicro(g.maxDailyNotionalUsd);
    const left = maxDaily - input.dailyNotionalUsedMicro;
    if (notionalMicro > left) {
      return refuse(
        'guardrail_daily_notional',
        `This trade's notional of ${formatUsdc(notionalMicro)} USDC would exceed your daily guardrail of ` +
          `${formatUsdc(maxDaily)} USDC ` +
          `(${formatUsdc(left > 0n ? left : 0n)} USDC left today); lower the margin or leverage, wait until ` +
          `tomorrow, ${RAISE}.`,
      );
    }
  }
  if (g.maxOpenPositions !== null && input.openPositionCount >= g.maxOpenPositions) {
    return refuse(
      'guardrail_max_positions',
      `You have ${input.openPositionCount} open positions and your guardrail allows at most ${g.maxOpenPositions}; ` +
        `close a position first ${RAISE}.`,
    );
  }
  if (g.allowedMarkets !== null && !g.allowedMarkets.includes(market)) {
    const allowed = g.allowedMarkets.length > 0 ? g.allowedMarkets.join(', ') : 'none';
    return refuse(
      'guardrail_market_not_allowed',
      `Your guardrails do not allow trading ${market} (allowed markets: ${allowed}); trade an allowed market ${RAISE}.`,
    );
  }
  return null;
}

function refuse(reason: GuardrailRefusalReason, message: string): GuardrailRefusal {
  return { reason, message };
}
