import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { int8 } from './row-fields';

/** The balances and lifetime totals of one exchange account, in micro-USDC. */
export interface AccountBalances {
  displayName: string | null;
  freeMicro: bigint;
  lockedMicro: bigint;
  queuedMicro: bigint;
  paperMicro: bigint;
  stakedMicro: bigint;
  realizedPnlMicro: bigint;
  totalVolumeMicro: bigint;
  feesPaidMicro: bigint;
  stakingRewardsMicro: bigint;
}

export const AccountBalancesRow = z.object({
  display_name: z.string().nullable(),
  free_micro: int8,
  locked_micro: int8,
  queued_micro: int8,
  paper_micro: int8,
  staked_micro: int8,
  realized_pnl_micro: int8,
  total_volume_micro: int8,
  fees_paid_micro: int8,
  staking_rewards_micro: int8,
});
export type AccountBalancesRow = z.infer<typeof AccountBalancesRow>;

/** The account's balances, or undefined when the wallet has no exchange account yet. */
export async function accountBalances(db: QueryExecutor, wallet: string): Promise<AccountBalances | undefined> {
  const [row] = await queryRows<AccountBalancesRow>(
    db,
    `SELECT display_name, free_micro, locked_micro, queued_micro, paper_micro, staked_micro, realized_pnl_micro,
       total_volume_micro, fees_paid_micro, staking_rewards_micro
       FROM exchange.accounts WHERE wallet = $1`,
    [wallet],
  );
  if (!row) return undefined;
  return {
    displayName: row.display_name,
    freeMicro: BigInt(row.free_micro),
    lockedMicro: BigInt(row.locked_micro),
    queuedMicro: BigInt(row.queued_micro),
    paperMicro: BigInt(row.paper_micro),
    stakedMicro: BigInt(row.staked_micro),
    realizedPnlMicro: BigInt(row.realized_pnl_micro),
    totalVolumeMicro: BigInt(row.total_volume_micro),
    feesPaidMicro: BigInt(row.fees_paid_micro),
    stakingRewardsMicro: BigInt(row.staking_rewards_micro),
  };
}

/**
 * How a wallet's positions ended: trades (every position no longer open), wins and losses among the closed ones,
 * liquidations.
 */
export interface TradeCounts {
  trades: number;
  wins: number;
  losses: number;
  liquidations: number;
}

export const TradeCountsRow = z.object({ trades: int8, wins: int8, losses: int8, liquidations: int8 });
export type TradeCountsRow = z.infer<typeof TradeCountsRow>;

export async function tradeCounts(db: QueryExecutor, wallet: string): Promise<TradeCounts> {
  const [row] = await queryRows<TradeCountsRow>(
    db,
    `SELECT COUNT(*) FILTER (WHERE status <> 'open') AS trades,
            COUNT(*) FILTER (WHERE status = 'closed' AND pnl_micro > 0) AS wins,
            COUNT(*) FILTER (WHERE status = 'closed' AND pnl_micro <= 0) AS losses,
            COUNT(*) FILTER (WHERE status = 'liquidated') AS liquidations
       FROM exchange.positions WHERE wallet = $1`,
    [wallet],
  );
  return {
    trades: Number(row?.trades ?? 0),
    wins: Number(row?.wins ?? 0),
    losses: Number(row?.losses ?? 0),
    liquidations: Number(row?.liquidations ?? 0),
  };
}

export const DepositAccountRow = z.object({ deposit_address: z.string(), activated: z.boolean() });
export type DepositAccountRow = z.infer<typeof DepositAccountRow>;

/**
 * Where a wallet's deposits go and whether its account paid the activation fee; undefined before the account exists.
 */
export async function depositAccount(
  db: QueryExecutor,
  wallet: string,
): Promise<{ depositAddress: string; activated: boolean } | undefined> {
  const [row] = await queryRows<DepositAccountRow>(
    db,
    `SELECT deposit_address, activated FROM exchange.accounts WHERE wallet = $1`,
    [wallet],
  );
  return row ? { depositAddress: row.deposit_address, activated: row.activated } : undefined;
}
