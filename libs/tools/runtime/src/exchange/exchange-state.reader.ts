import { Inject, Injectable } from '@nestjs/common';
import { MARKETS, type Market, type MarketConfig, type MarketStatus, isMarket, marketConfig } from '@paper/exchange';
import { DataSource } from 'typeorm';
import { toBig } from '../money/money-format';

export interface MarketState {
  config: MarketConfig;
  longOpenInterestMicro: bigint;
  shortOpenInterestMicro: bigint;
}

export interface ExchangeState {
  tradingEnabled: boolean;
  markets: Record<Market, MarketState>;
}

interface MarketRow {
  market: string;
  status: MarketStatus;
  long_oi_cap_micro: string | null;
  short_oi_cap_micro: string | null;
  long_oi_micro: string;
  short_oi_micro: string;
  trading_enabled: boolean;
}

/** Market flags, open-interest caps and totals, and the exchange-wide trading switch. */
@Injectable()
export class ExchangeStateReader {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async read(): Promise<ExchangeState> {
    const rows: MarketRow[] = await this.db.query(
      `SELECT m.market, m.status, m.long_oi_cap_micro, m.short_oi_cap_micro, m.long_oi_micro, m.short_oi_micro, p.trading_enabled
         FROM exchange.markets m CROSS JOIN exchange.protocol_state p`,
    );
    const markets = {} as Record<Market, MarketState>;
    for (const market of MARKETS) markets[market] = { config: marketConfig(market), longOpenInterestMicro: 0n, shortOpenInterestMicro: 0n };
    let tradingEnabled = rows.length === 0;
    for (const row of rows) {
      tradingEnabled = row.trading_enabled;
      if (!isMarket(row.market)) continue;
      markets[row.market] = {
        config: marketConfig(row.market, {
          status: row.status,
          longOpenInterestCapMicro: row.long_oi_cap_micro === null ? null : toBig(row.long_oi_cap_micro),
          shortOpenInterestCapMicro: row.short_oi_cap_micro === null ? null : toBig(row.short_oi_cap_micro),
        }),
        longOpenInterestMicro: toBig(row.long_oi_micro),
        shortOpenInterestMicro: toBig(row.short_oi_micro),
      };
    }
    return { tradingEnabled, markets };
  }
}
