import type { AccountDelta } from '@paper/exchange';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { int8 } from './row-fields';

/** An account's balances, read under its row lock. */
export interface LockedAccount {
  wallet: string;
  freeMicro: bigint;
  lockedMicro: bigint;
  queuedMicro: bigint;
  activated: boolean;
}

export const AccountBalanceRow = z.object({
  wallet: z.string(),
  free_micro: int8,
  locked_micro: int8,
  queued_micro: int8,
  activated: z.boolean(),
});
export type AccountBalanceRow = z.infer<typeof AccountBalanceRow>;

/** Locks accounts (sorted by wallet, so concurrent transactions never deadlock on them) and reads balances. */
export async function lockAccounts(db: QueryExecutor, wallets: readonly string[]): Promise<Map<string, LockedAccount>> {
  const sorted = [...new Set(wallets)].sort();
  const rows = await queryRows<AccountBalanceRow>(
    db,
    `SELECT wallet, free_micro, locked_micro, queued_micro, activated FROM exchange.accounts
      WHERE wallet = ANY($1::varchar[]) ORDER BY wallet FOR UPDATE`,
    [sorted],
  );
  return new Map(
    rows.map((r) => [
      r.wallet,
      {
        wallet: r.wallet,
        freeMicro: BigInt(r.free_micro),
        lockedMicro: BigInt(r.locked_micro),
        queuedMicro: BigInt(r.queued_micro),
        activated: r.activated,
      },
    ]),
  );
}

/**
 * Applies balance changes to many accounts in one statement (the caller holds their locks); `volumes`
 * adds notional opened to the accounts' trading volume; `touch` marks the accounts active now.
 */
export async function applyAccountDeltas(
  db: QueryExecutor,
  deltas: ReadonlyMap<string, AccountDelta>,
  touch = true,
  volumes?: ReadonlyMap<string, bigint>,
): Promise<void> {
  if (deltas.size === 0) return;
  const cols: string[][] = [[], [], [], [], [], [], []];
  for (const [wallet, d] of deltas) {
    [
      wallet,
      d.freeMicro,
      d.lockedMicro,
      d.queuedMicro,
      d.realizedPnlMicro,
      d.paperMicro,
      volumes?.get(wallet) ?? 0n,
    ].forEach((v, i) => cols[i]!.push(v.toString()));
  }
  await db.query(
    `UPDATE exchange.accounts a
        SET free_micro = a.free_micro + v.free, locked_micro = a.locked_micro + v.locked,
            queued_micro = a.queued_micro + v.queued, realized_pnl_micro = a.realized_pnl_micro + v.realized,
            paper_micro = a.paper_micro + v.paper, total_volume_micro = a.total_volume_micro +
              v.volume${touch ? ', last_active_at = now()' : ''}
       FROM unnest($1::varchar[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[])
            AS v(wallet, free, locked, queued, realized, paper, volume)
      WHERE a.wallet = v.wallet`,
    cols,
  );
}

/** Opens the account of a wallet with its deposit proxy address, unless it has one (development funding). */
export async function ensureAccount(db: QueryExecutor, wallet: string, depositAddress: string): Promise<void> {
  await db.query(
    `INSERT INTO exchange.accounts (wallet, deposit_address) VALUES ($1, $2) ON CONFLICT (wallet) DO NOTHING`,
    [wallet, depositAddress],
  );
}
