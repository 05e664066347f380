import { DEFAULT_GUARDRAILS } from './guardrails';
import { BTC_MARKET_CONFIG, marketConfig } from './market-config';
import { OpenCheckInput, OpenRefusal, checkOpen } from './opening-checks';

const U = 1_000_000n;

const base: OpenCheckInput = {
  market: 'BTC',
  side: 'long',
  marginMicro: 100n * U,
  leverage: 100,
  config: BTC_MARKET_CONFIG,
  tradingEnabled: true,
  availableBalanceMicro: 1_000_000n * U,
  sideOpenInterestMicro: 0n,
  guardrails: DEFAULT_GUARDRAILS,
  dailyNotionalUsedMicro: 0n,
  openPositionCount: 0,
};

function reasonOf(overrides: Partial<OpenCheckInput>): OpenRefusal | 'ok' {
  const result = checkOpen({ ...base, ...overrides });
  return result.ok ? 'ok' : result.reason;
}

describe('checkOpen: boundaries of the exchange limits', () => {
  it.each<[string, Partial<OpenCheckInput>, OpenRefusal | 'ok']>([
    ['a plain trade', {}, 'ok'],
    ['leverage 1 with 10,000 USDC margin', { leverage: 1, marginMicro: 10_000n * U }, 'ok'],
    ['leverage 1000 with 10 USDC margin', { leverage: 1000, marginMicro: 10n * U }, 'ok'],
    ['leverage 0', { leverage: 0 }, 'leverage_out_of_range'],
    ['leverage 1001', { leverage: 1001 }, 'leverage_out_of_range'],
    ['leverage 2.5', { leverage: 2.5 }, 'leverage_out_of_range'],
    ['leverage NaN', { leverage: Number.NaN }, 'leverage_out_of_range'],
    ['margin 9.999999 USDC', { leverage: 1000, marginMicro: 9_999_999n }, 'margin_below_minimum'],
    ['notional exactly 10,000', { leverage: 500, marginMicro: 20n * U }, 'ok'],
    ['notional 9,999.9995', { leverage: 500, marginMicro: 20n * U - 1n }, 'notional_below_minimum'],
    ['margin equal to the balance', { availableBalanceMicro: 100n * U }, 'ok'],
    ['margin 1 micro above the balance', { availableBalanceMicro: 100n * U - 1n }, 'insufficient_balance'],
    ['notional exactly 10,000,000', { leverage: 1000, marginMicro: 10_000n * U }, 'ok'],
    [
      'notional 1,000 micro above 10,000,000',
      { leverage: 1000, marginMicro: 10_000n * U + 1n },
      'notional_above_maximum',
    ],
    ['trading switched off', { tradingEnabled: false }, 'trading_paused'],
    ['market paused', { config: marketConfig('BTC', { status: 'paused' }) }, 'market_paused'],
    ['market close-only', { config: marketConfig('BTC', { status: 'close-only' }) }, 'market_close_only'],
  ])('%s -> %s', (_name, overrides, expected) => {
    expect(reasonOf(overrides)).toBe(expected);
  });

  it('fills the open-interest headroom exactly, and no further', () => {
    const config = marketConfig('BTC', { longOpenInterestCapMicro: 1_000_000n * U });
    // notional 10,000 USDC
    expect(reasonOf({ config, sideOpenInterestMicro: 990_000n * U })).toBe('ok');
    expect(reasonOf({ config, sideOpenInterestMicro: 990_000n * U + 1n })).toBe('open_interest_cap');
    // the short side has no cap
    expect(reasonOf({ config, side: 'short', sideOpenInterestMicro: 5_000_000n * U })).toBe('ok');
  });

  it('reports the notional when accepted', () => {
    expect(checkOpen(base)).toEqual({ ok: true, notionalMicro: 10_000n * U });
  });
});

describe('checkOpen: order of checks', () => {
  it.each<[string, Partial<OpenCheckInput>, OpenRefusal]>([
    [
      'trading paused before a paused market',
      { tradingEnabled: false, config: marketConfig('BTC', { status: 'paused' }) },
      'trading_paused',
    ],
    [
      'market status before leverage',
      { config: marketConfig('BTC', { status: 'close-only' }), leverage: 5000 },
      'market_close_only',
    ],
    ['leverage before margin', { leverage: 0, marginMicro: 1n }, 'leverage_out_of_range'],
    [
      'margin minimum before notional minimum and balance',
      { marginMicro: 5n * U, leverage: 10, availableBalanceMicro: 0n },
      'margin_below_minimum',
    ],
    [
      'notional minimum before balance',
      { marginMicro: 50n * U, leverage: 10, availableBalanceMicro: 0n },
      'notional_below_minimum',
    ],
    [
      'balance before notional maximum',
      { marginMicro: 20_000n * U, leverage: 1000, availableBalanceMicro: 0n },
      'insufficient_balance',
    ],
    [
      'notional maximum before open interest',
      { marginMicro: 20_000n * U, leverage: 1000, config: marketConfig('BTC', { longOpenInterestCapMicro: 0n }) },
      'notional_above_maximum',
    ],
    [
      'open interest before guardrails',
      {
        config: marketConfig('BTC', { longOpenInterestCapMicro: 0n }),
        guardrails: { ...DEFAULT_GUARDRAILS, maxLeverage: 1 },
      },
      'open_interest_cap',
    ],
    [
      'exchange limits before guardrails',
      { leverage: 1001, guardrails: { ...DEFAULT_GUARDRAILS, maxLeverage: 1 } },
      'leverage_out_of_range',
    ],
  ])('%s', (_name, overrides, expected) => {
    expect(reasonOf(overrides)).toBe(expected);
  });
});

describe('checkOpen: messages tell the user how to fix it', () => {
  it('margin below minimum', () => {
    const r = checkOpen({ ...base, marginMicro: 5n * U, leverage: 1000 });
    expect(r).toEqual({
      ok: false,
      reason: 'margin_below_minimum',
      message: 'Margin 5 USDC is below the 10 USDC minimum; use at least 10 USDC.',
    });
  });

  it('notional below minimum names the margin needed', () => {
    const r = checkOpen({ ...base, marginMicro: 10n * U, leverage: 500 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('raise the margin to at least 20 USDC at 500x');
  });

  it('insufficient balance names the balance', () => {
    const r = checkOpen({ ...base, availableBalanceMicro: 42_500_000n });
    if (r.ok) throw new Error('expected a refusal');
    expect(r.message).toContain('available balance of 42.5 USDC');
  });

  it('refuses a config of another market', () => {
    expect(() => checkOpen({ ...base, market: 'ETH' })).toThrow(RangeError);
  });
});
