import { Inject, Injectable } from '@nestjs/common';
import { MARKETS, type Market, isMarket, marketConfig } from '@paper/exchange';
import { type MarketState, marketRows, marketStateOf } from '@paper/exchange-data';
import { DataSource } from 'typeorm';

export type { MarketState };

export interface ExchangeState {
  tradingEnabled: boolean;
  markets: Record<Market, MarketState>;
}

/** Market flags, open-interest caps and totals, and the exchange-wide trading switch. */
@Injectable()
export class ExchangeStateReader {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async read(): Promise<ExchangeState> {
    const rows = await marketRows(this.db);
    const markets = {} as Record<Market, MarketState>;
    for (const market of MARKETS)
      markets[market] = { config: marketConfig(market), longOpenInterestMicro: 0n, shortOpenInterestMicro: 0n };
    let tradingEnabled = rows.length === 0;
    for (const row of rows) {
      tradingEnabled = row.trading_enabled;
      if (isMarket(row.market)) markets[row.market] = marketStateOf(row);
    }
    return { tradingEnabled, markets };
  }
}
