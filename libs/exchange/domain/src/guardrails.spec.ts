import { DEFAULT_GUARDRAILS, GuardrailCheckInput, Guardrails, checkGuardrails } from './guardrails';

const U = 1_000_000n;

const base: Omit<GuardrailCheckInput, 'guardrails'> = {
  market: 'BTC',
  marginMicro: 100n * U,
  leverage: 50,
  notionalMicro: 5_000n * U,
  dailyNotionalUsedMicro: 0n,
  openPositionCount: 0,
};

function reason(guardrails: Partial<Guardrails>, input: Partial<GuardrailCheckInput> = {}) {
  return checkGuardrails({ ...base, ...input, guardrails: { ...DEFAULT_GUARDRAILS, ...guardrails } })?.reason ?? 'ok';
}

describe('checkGuardrails', () => {
  it('defaults impose no limit but require confirmation', () => {
    expect(DEFAULT_GUARDRAILS.requireConfirmation).toBe(true);
    expect(
      reason({}, { marginMicro: 10n ** 15n, leverage: 1000, notionalMicro: 10n ** 18n, openPositionCount: 10_000 }),
    ).toBe('ok');
  });

  it.each<[string, Partial<Guardrails>, Partial<GuardrailCheckInput>, string]>([
    ['margin at the limit', { maxMarginPerTradeUsd: '100' }, {}, 'ok'],
    ['margin 1 micro over', { maxMarginPerTradeUsd: '100' }, { marginMicro: 100n * U + 1n }, 'guardrail_max_margin'],
    ['fractional margin limit', { maxMarginPerTradeUsd: '99.5' }, {}, 'guardrail_max_margin'],
    ['leverage at the limit', { maxLeverage: 50 }, {}, 'ok'],
    ['leverage over', { maxLeverage: 49 }, {}, 'guardrail_max_leverage'],
    ['daily notional filled exactly', { maxDailyNotionalUsd: '100000' }, { dailyNotionalUsedMicro: 95_000n * U }, 'ok'],
    [
      'daily notional 1 micro over',
      { maxDailyNotionalUsd: '100000' },
      { dailyNotionalUsedMicro: 95_000n * U + 1n },
      'guardrail_daily_notional',
    ],
    ['one position below the max', { maxOpenPositions: 3 }, { openPositionCount: 2 }, 'ok'],
    ['at the max positions', { maxOpenPositions: 3 }, { openPositionCount: 3 }, 'guardrail_max_positions'],
    ['allowed market', { allowedMarkets: ['BTC'] }, {}, 'ok'],
    ['market not allowed', { allowedMarkets: ['ETH'] }, {}, 'guardrail_market_not_allowed'],
    ['no market allowed', { allowedMarkets: [] }, {}, 'guardrail_market_not_allowed'],
    ['margin checked before market', { maxMarginPerTradeUsd: '1', allowedMarkets: [] }, {}, 'guardrail_max_margin'],
  ])('%s -> %s', (_name, guardrails, input, expected) => {
    expect(reason(guardrails, input)).toBe(expected);
  });

  it('explains the daily limit with what is left', () => {
    const r = checkGuardrails({
      ...base,
      dailyNotionalUsedMicro: 98_000n * U,
      guardrails: { ...DEFAULT_GUARDRAILS, maxDailyNotionalUsd: '100000' },
    });
    expect(r?.message).toContain('(2,000 USDC left today)');
  });
});
