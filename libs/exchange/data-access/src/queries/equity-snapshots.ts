import { type QueryExecutor, queryRows } from '@paper/sql-rows';

/** One recorded point of a wallet's equity (micro-USDC). */
export interface EquitySnapshot {
  takenAt: Date;
  equityMicro: bigint;
  freeMicro: bigint;
  lockedMicro: bigint;
  unrealizedPnlMicro: bigint;
}

/** A wallet's equity snapshots, oldest first: all, or those of the last `interval` (a PostgreSQL interval literal from a fixed set). */
export async function equitySnapshots(
  db: QueryExecutor,
  wallet: string,
  interval: '1 hour' | '1 day' | '7 days' | null,
): Promise<EquitySnapshot[]> {
  const rows = await queryRows<{
    taken_at: Date;
    equity_micro: string;
    free_micro: string;
    locked_micro: string;
    unrealized_pnl_micro: string;
  }>(
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

export async function snapshotAccounts(db: QueryExecutor, activeWindow: string): Promise<SnapshotAccount[]> {
  const rows = await queryRows<{ wallet: string; free_micro: string; locked_micro: string; queued_micro: string }>(
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
    `INSERT INTO exchange.equity_snapshots (wallet, taken_at, equity_micro, free_micro, locked_micro, unrealized_pnl_micro)
     SELECT v.wallet, date_trunc('minute', now()), v.equity, v.free, v.locked, v.unrealized
       FROM unnest($1::varchar[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[]) AS v(wallet, equity, free, locked, unrealized)
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
