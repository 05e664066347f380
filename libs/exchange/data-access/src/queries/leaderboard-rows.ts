import { type AccountBalances, AccountBalancesRow } from './account-summary';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { decimal, timestamp } from './row-fields';

/** A trader active in a window (traded in it, or holds an open position), with the window's realized PnL and volume. */
export interface LeaderboardAccount extends Pick<
  AccountBalances,
  'displayName' | 'freeMicro' | 'lockedMicro' | 'queuedMicro' | 'paperMicro' | 'stakedMicro'
> {
  wallet: string;
  /** Last activity: the account's, else its last trade. */
  lastActive: Date | null;
  realizedMicro: bigint;
  volumeMicro: bigint;
}

export const LeaderboardRow = AccountBalancesRow.pick({
  display_name: true,
  free_micro: true,
  locked_micro: true,
  queued_micro: true,
  paper_micro: true,
  staked_micro: true,
}).extend({ wallet: z.string(), last_active: timestamp.nullable(), realized: decimal, volume: decimal });
type LeaderboardRow = z.infer<typeof LeaderboardRow>;

const SQL = `
  WITH w AS (
    SELECT wallet,
           COALESCE(SUM(pnl_micro) FILTER (WHERE closed_at >= $1), 0) AS realized,
           COALESCE(SUM(notional_micro) FILTER (WHERE opened_at >= $1), 0)
             + COALESCE(SUM(notional_micro) FILTER (WHERE closed_at >= $1), 0) AS volume,
           COUNT(*) FILTER (WHERE opened_at >= $1 OR closed_at >= $1 OR status = 'open') AS active,
           MAX(GREATEST(opened_at, COALESCE(closed_at, opened_at))) AS last_trade
      FROM exchange.positions GROUP BY wallet)
  SELECT a.wallet, a.display_name, a.free_micro, a.locked_micro, a.queued_micro, a.paper_micro, a.staked_micro,
         COALESCE(a.last_active_at, w.last_trade) AS last_active, w.realized, w.volume
    FROM exchange.accounts a JOIN w ON w.wallet = a.wallet
   WHERE w.active > 0`;

/** Every account active since `since`, for the leaderboard (ranked by the caller with live PnL). */
export async function leaderboardAccounts(db: QueryExecutor, since: Date): Promise<LeaderboardAccount[]> {
  return (await queryRows<LeaderboardRow>(db, SQL, [since])).map((r) => ({
    wallet: r.wallet,
    displayName: r.display_name,
    freeMicro: BigInt(r.free_micro),
    lockedMicro: BigInt(r.locked_micro),
    queuedMicro: BigInt(r.queued_micro),
    paperMicro: BigInt(r.paper_micro),
    stakedMicro: BigInt(r.staked_micro),
    lastActive: r.last_active ? new Date(r.last_active) : null,
    realizedMicro: BigInt(String(r.realized).split('.')[0]!),
    volumeMicro: BigInt(String(r.volume).split('.')[0]!),
  }));
}
