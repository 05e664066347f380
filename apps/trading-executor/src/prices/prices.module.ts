import { type DynamicModule, Module } from '@nestjs/common';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { PriceBook } from './price-book.service';
import { ingestUpstreamClient, PriceIngestService, UPSTREAM_CLIENT } from './price-ingest.service';

/** Latest prices: the ingest from the upstream venue and the price book every feature reads. */
@Module({})
export class PricesModule {
  static forRoot(config: TradingExecutorConfig): DynamicModule {
    return {
      module: PricesModule,
      global: true,
      providers: [PriceBook, PriceIngestService, { provide: UPSTREAM_CLIENT, useValue: ingestUpstreamClient(config) }],
      exports: [PriceBook],
    };
  }
}
