import type { WalletRules } from '@paper/contracts';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';

/** A watch as the poller reads it. */
export interface WatchRow {
  id: string;
  accountId: string;
  address: string;
  rules: WalletRules;
  createdAt: Date;
  /** Last change of the watch (creation or update): a leaderboard scan speaks only for watches older than it. */
  changedAt: Date;
}

/** An `alerts.watches` row as the poller selects it. */
export interface RawWatchRow {
  id: string;
  account_id: string;
  address: string;
  rules: WalletRules;
  created_at: Date;
  updated_at: Date;
}

function toWatchRow(r: RawWatchRow): WatchRow {
  return {
    id: r.id,
    accountId: r.account_id,
    address: r.address.toLowerCase(),
    rules: r.rules,
    createdAt: r.created_at,
    changedAt: r.updated_at > r.created_at ? r.updated_at : r.created_at,
  };
}

/** Every watch of every account, by address (lower-cased) then id. */
export async function watchesToPoll(db: QueryExecutor): Promise<WatchRow[]> {
  const rows = await queryRows<RawWatchRow>(
    db,
    `SELECT id, account_id, address, rules, created_at, updated_at FROM alerts.watches ORDER BY address, id`,
  );
  return rows.map(toWatchRow);
}
