import { describeGuardrails } from './guardrails-copy';

describe('guardrails in plain words', () => {
  it('formats amounts, leverage, markets and no-limit values', () => {
    const rows = describeGuardrails({
      maxMarginPerTradeUsd: '1250.5',
      maxLeverage: 200,
      maxDailyNotionalUsd: null,
      maxOpenPositions: null,
      allowedMarkets: ['BTC'],
      requireConfirmation: true,
    });
    expect(Object.fromEntries(rows.map((r) => [r.label, r.value]))).toEqual({
      'Maximum margin per trade': '1,250.5 USDC',
      'Maximum leverage': '200×',
      'Maximum daily notional': 'No limit',
      'Maximum open positions': 'No limit',
      Markets: 'BTC',
      'Preview before each open': 'Required',
    });
  });

  it('says "All markets" when the owner allowed every market', () => {
    const rows = describeGuardrails({
      maxMarginPerTradeUsd: null,
      maxLeverage: null,
      maxDailyNotionalUsd: '50000',
      maxOpenPositions: 2,
      allowedMarkets: null,
      requireConfirmation: false,
    });
    expect(rows.find((r) => r.label === 'Markets')?.value).toBe('All markets');
    expect(rows.find((r) => r.label === 'Maximum daily notional')?.value).toBe('50,000 USDC');
  });
});
