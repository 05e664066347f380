import type { SettlingPosition, Side } from '@paper/exchange';

/** The columns of an `exchange.positions` row that settlement needs (as node-postgres returns them). */
export interface SettlingPositionColumns {
  wallet: string;
  side: Side;
  entry_price: string;
  margin_micro: string;
  leverage: number;
  margin_queued_micro: string;
  bust_price: string;
}

/** A stored open position as the exchange's settlement formulas take it. */
export function settlingPosition(row: SettlingPositionColumns): SettlingPosition {
  return {
    wallet: row.wallet,
    side: row.side,
    entryPrice: BigInt(row.entry_price),
    marginMicro: BigInt(row.margin_micro),
    leverage: row.leverage,
    marginQueuedMicro: BigInt(row.margin_queued_micro),
    bustPrice: BigInt(row.bust_price),
  };
}
