import { type QueryExecutor, queryRows } from './chain-balances';

/** One recorded point of a wallet's equity (micro-USDC). */
export interface EquitySnapshot {
  takenAt: Date;
  equityMicro: bigint;
  freeMicro: bigint;
  lockedMicro: bigint;
  unrealizedPnlMicro: bigint;
}

/** A wallet's equity snapshots, oldest first: all, or those of the last `interval` (a PostgreSQL interval literal from a fixed set). */
export async function equitySnapshots(db: QueryExecutor, wallet: string, interval: '1 hour' | '1 day' | '7 days' | null): Promise<EquitySnapshot[]> {
  const rows = await queryRows<{ taken_at: Date; equity_micro: string; free_micro: string; locked_micro: string; unrealized_pnl_micro: string }>(
    db,
    `SELECT taken_at, equity_micro, free_micro, locked_micro, unrealized_pnl_micro FROM exchange.equity_snapshots
      WHERE wallet = $1 AND ($2::interval IS NULL OR taken_at >= now() - $2::interval) ORDER BY taken_at`,
    [wallet, interval],
  );
  return rows.map((r) => ({
    takenAt: r.taken_at,
    equityMicro: BigInt(r.equity_micro),
    freeMicro: BigInt(r.free_micro),
    lockedMicro: BigInt(r.locked_micro),
    unrealizedPnlMicro: BigInt(r.unrealized_pnl_micro),
  }));
}
