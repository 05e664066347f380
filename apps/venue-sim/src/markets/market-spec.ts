/** The markets the simulator quotes, with the venue's price and size precision. */
export interface MarketSpec {
  coin: 'BTC' | 'ETH';
  /** Decimals of a price tick (BTC 0.1, ETH 0.01). */
  priceDecimals: number;
  szDecimals: number;
  maxLeverage: number;
  /** Mid when the simulator starts. */
  startPrice: number;
  /** Annualised volatility of the random walk. */
  annualVol: number;
  /** Average traded base volume a minute. */
  volumePerMinute: number;
  /** Average trade size, to derive trade counts. */
  avgTradeSize: number;
  /** Distinguishes the markets' random streams under one seed. */
  salt: number;
}

export const MARKETS: readonly MarketSpec[] = Object.freeze([
  {
    coin: 'BTC',
    priceDecimals: 1,
    szDecimals: 5,
    maxLeverage: 40,
    startPrice: 100_000,
    annualVol: 0.5,
    volumePerMinute: 14,
    avgTradeSize: 0.05,
    salt: 1,
  },
  {
    coin: 'ETH',
    priceDecimals: 2,
    szDecimals: 4,
    maxLeverage: 25,
    startPrice: 3_500,
    annualVol: 0.65,
    volumePerMinute: 200,
    avgTradeSize: 1,
    salt: 2,
  },
]);

export type Coin = MarketSpec['coin'];

export function findMarket(coin: string): MarketSpec | undefined {
  return MARKETS.find((m) => m.coin === coin);
}
