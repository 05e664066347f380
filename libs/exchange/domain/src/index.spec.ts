import * as exchange from './index';

describe('public entry', () => {
  it('exposes the domain functions and defaults', () => {
    for (const name of [
      'settle',
      'bustPrice',
      'checkOpen',
      'calculatePosition',
      'pnlScenarios',
      'harvestPayoutQueue',
      'rewardMintAmount',
      'midPrice',
      'usdcToMicro',
    ] as const) {
      expect(typeof exchange[name]).toBe('function');
    }
    expect(exchange.DEFAULT_MARKET_CONFIGS.ETH.priceScale).toBe(100n);
    expect(exchange.DEFAULT_MARKET_CONFIGS.BTC.maxLeverage).toBe(1000);
    expect(exchange.DEFAULT_GUARDRAILS.requireConfirmation).toBe(true);
  });
});
