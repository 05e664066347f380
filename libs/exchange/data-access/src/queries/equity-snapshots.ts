import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { int8, timestamp } from './row-fields';

/** One recorded point of a wallet's equity (micro-USDC). */
export interface EquitySnapshot {
  takenAt: Date;
  equityMicro: bigint;
  freeMicro: bigint;
  lockedMicro: bigint;
  unrealizedPnlMicro: bigint;
}

export const EquitySnapshotRow = z.object({
  taken_at: timestamp,
  equity_micro: int8,
  free_micro: int8,
  locked_micro: int8,
  unrealized_pnl_micro: int8,
});
export type EquitySnapshotRow = z.infer<typeof EquitySnapshotRow>;

/**
 * A wallet's equity snapshots, oldest first: all, or those of the last `interval` (a PostgreSQL interval literal from a
 * fixed set).
 */
export async function equitySnapshots(
  db: QueryExecutor,
  wallet: string,
  interval: '1 hour' | '1 day' | '7 days' | null,
): Promise<EquitySnapshot[]> {
  const rows = await queryRows<EquitySnapshotRow>(
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

/** An account that gets an equity snapshot: active within `activeWindow`, or holding an open position. */
export interface SnapshotAccount {
  wallet: string;
  freeMicro: bigint;
  lockedMicro: bigint;
  queuedMicro: bigint;
}

export const SnapshotAccountRow = z.object({
  wallet: z.string(),
  free_micro: int8,
  locked_micro: int8,
  queued_micro: int8,
});
export type SnapshotAccountRow = z.infer<typeof SnapshotAccountRow>;

export async function snapshotAccounts(db: QueryExecutor, activeWindow: string): Promise<SnapshotAccount[]> {
  const rows = await queryRows<SnapshotAccountRow>(
    db,
    `SELECT wallet, free_micro, locked_micro, queued_micro FROM exchange.accounts a
      WHERE last_active_at > now() - $1::interval
         OR EXISTS (SELECT 1 FROM exchange.positions p WHERE p.wallet = a.wallet AND p.status = 'open')`,
    [activeWindow],
  );
  return rows.map((r) => ({
    wallet: r.wallet,
    freeMicro: BigInt(r.free_micro),
    lockedMicro: BigInt(r.locked_micro),
    queuedMicro: BigInt(r.queued_micro),
  }));
}

/** Records one snapshot per wallet for the current minute (a second run in the same minute changes nothing). */
export async function insertEquitySnapshots(
  db: QueryExecutor,
  snapshots: readonly {
    wallet: string;
    equityMicro: bigint;
    freeMicro: bigint;
    lockedMicro: bigint;
    unrealizedPnlMicro: bigint;
  }[],
): Promise<void> {
  if (snapshots.length === 0) return;
  await db.query(
    `INSERT INTO exchange.equity_snapshots (wallet, taken_at, equity_micro, free_micro, locked_micro,
       unrealized_pnl_micro)
     SELECT v.wallet, date_trunc('minute', now()), v.equity, v.free, v.locked, v.unrealized
       FROM unnest($1::varchar[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
         AS v(wallet, equity, free, locked, unrealized)
     ON CONFLICT (wallet, taken_at) DO NOTHING`,
    [
      snapshots.map((s) => s.wallet),
      snapshots.map((s) => s.equityMicro.toString()),
      snapshots.map((s) => s.freeMicro.toString()),
      snapshots.map((s) => s.lockedMicro.toString()),
      snapshots.map((s) => s.unrealizedPnlMicro.toString()),
    ],
  );
}
