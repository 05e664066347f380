import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { int8, WalletRow } from './row-fields';

export const StakeRow = z.object({ wallet: z.string(), staked_micro: int8 });
export type StakeRow = z.infer<typeof StakeRow>;

/** Wallets that stake PAPER, read without a lock (to know which accounts to lock). */
export async function stakingWallets(db: QueryExecutor): Promise<string[]> {
  const rows = await queryRows<WalletRow>(db, `SELECT wallet FROM exchange.accounts WHERE staked_micro > 0`);
  return rows.map((r) => r.wallet);
}

/**
 * The PAPER each of these wallets stakes (the caller holds their locks), by wallet; wallets staking nothing are left
 * out.
 */
export async function stakes(
  db: QueryExecutor,
  wallets: readonly string[],
): Promise<{ wallet: string; stakedMicro: bigint }[]> {
  const rows = await queryRows<StakeRow>(
    db,
    `SELECT wallet, staked_micro FROM exchange.accounts WHERE wallet = ANY($1::varchar[]) AND staked_micro > 0
       ORDER BY wallet`,
    [wallets],
  );
  return rows.map((r) => ({ wallet: r.wallet, stakedMicro: BigInt(r.staked_micro) }));
}

/** Adds staking rewards to the stakers' accounts, in one statement (the caller holds their locks). */
export async function creditStakingRewards(
  db: QueryExecutor,
  credits: readonly { wallet: string; amountMicro: bigint }[],
): Promise<void> {
  if (credits.length === 0) return;
  await db.query(
    `UPDATE exchange.accounts a SET staking_rewards_micro = a.staking_rewards_micro + v.amount
       FROM unnest($1::varchar[], $2::bigint[]) AS v(wallet, amount) WHERE a.wallet = v.wallet`,
    [credits.map((c) => c.wallet), credits.map((c) => c.amountMicro.toString())],
  );
}
