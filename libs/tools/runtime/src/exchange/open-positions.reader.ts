import { Inject, Injectable } from '@nestjs/common';
import type { Market } from '@paper/exchange';
import { DataSource } from 'typeorm';
import { ExchangeStateReader } from './exchange-state.reader';
import { openPositionRows } from '@paper/exchange-data';
import { type PositionRow, valuePosition, type PositionValuation } from './position-valuation';
import { type LivePrice, PriceReader } from './price.reader';

export interface ValuedPosition {
  position: PositionRow;
  mark: bigint;
  value: PositionValuation;
}

/** Open positions (all, or one wallet's) valued at the live marks. */
@Injectable()
export class OpenPositionsReader {
  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    private readonly prices: PriceReader,
    private readonly state: ExchangeStateReader,
  ) {}

  async valued(wallet?: string): Promise<{ positions: ValuedPosition[]; marks: Record<Market, LivePrice> | null }> {
    const rows = await openPositionRows(this.db, wallet);
    if (rows.length === 0) return { positions: [], marks: null };
    const [marks, state] = await Promise.all([this.prices.all(), this.state.read()]);
    const positions = rows.map((position) => {
      const mark = marks[position.market].mid;
      return { position, mark, value: valuePosition(position, mark, state.markets[position.market].config) };
    });
    return { positions, marks };
  }
}
