import type { AccountDelta } from '@paper/exchange';
import type { Sql } from './sql-transaction';

export interface LockedAccount {
  wallet: string;
  freeMicro: bigint;
  lockedMicro: bigint;
  queuedMicro: bigint;
  activated: boolean;
}

interface AccountBalanceRow {
  wallet: string;
  free_micro: string;
  locked_micro: string;
  queued_micro: string;
  activated: boolean;
}

/** Locks accounts (sorted by wallet, so concurrent transactions never deadlock on them) and reads balances. */
export async function lockAccounts(sql: Sql, wallets: readonly string[]): Promise<Map<string, LockedAccount>> {
  const sorted = [...new Set(wallets)].sort();
  const { rows } = await sql<AccountBalanceRow>(
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

export function addDelta(a: AccountDelta | undefined, b: AccountDelta): AccountDelta {
  if (!a) return b;
  return {
    freeMicro: a.freeMicro + b.freeMicro,
    lockedMicro: a.lockedMicro + b.lockedMicro,
    queuedMicro: a.queuedMicro + b.queuedMicro,
    realizedPnlMicro: a.realizedPnlMicro + b.realizedPnlMicro,
    paperMicro: a.paperMicro + b.paperMicro,
  };
}

/**
 * Applies balance changes to many accounts in one statement (the caller holds their locks); `volumes`
 * adds notional opened to the accounts' trading volume.
 */
export async function applyAccountDeltas(
  sql: Sql,
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
  await sql(
    `UPDATE exchange.accounts a
        SET free_micro = a.free_micro + v.free, locked_micro = a.locked_micro + v.locked,
            queued_micro = a.queued_micro + v.queued, realized_pnl_micro = a.realized_pnl_micro + v.realized,
            paper_micro = a.paper_micro + v.paper, total_volume_micro = a.total_volume_micro + v.volume${touch ? ', last_active_at = now()' : ''}
       FROM unnest($1::varchar[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[])
            AS v(wallet, free, locked, queued, realized, paper, volume)
      WHERE a.wallet = v.wallet`,
    cols,
  );
}
