import { type QueryExecutor, queryRows } from '@paper/sql-rows';

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

export interface AccountBalancesRow {
  display_name: string | null;
  free_micro: string;
  locked_micro: string;
  queued_micro: string;
  paper_micro: string;
  staked_micro: string;
  realized_pnl_micro: string;
  total_volume_micro: string;
  fees_paid_micro: string;
  staking_rewards_micro: string;
}

/** The account's balances, or undefined when the wallet has no exchange account yet. */
export async function accountBalances(db: QueryExecutor, wallet: string): Promise<AccountBalances | undefined> {
  const [row] = await queryRows<AccountBalancesRow>(
    db,
    `SELECT display_name, free_micro, locked_micro, queued_micro, paper_micro, staked_micro, realized_pnl_micro, total_volume_micro, fees_paid_micro, staking_rewards_micro
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

/** How a wallet's positions ended: trades (every position no longer open), wins and losses among the closed ones, liquidations. */
export interface TradeCounts {
  trades: number;
  wins: number;
  losses: number;
  liquidations: number;
}

export async function tradeCounts(db: QueryExecutor, wallet: string): Promise<TradeCounts> {
  const [row] = await queryRows<{ trades: string; wins: string; losses: string; liquidations: string }>(
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

/** Where a wallet's deposits go and whether its account paid the activation fee; undefined before the account exists. */
export async function depositAccount(
  db: QueryExecutor,
  wallet: string,
): Promise<{ depositAddress: string; activated: boolean } | undefined> {
  const [row] = await queryRows<{ deposit_address: string; activated: boolean }>(
    db,
    `SELECT deposit_address, activated FROM exchange.accounts WHERE wallet = $1`,
    [wallet],
  );
  return row ? { depositAddress: row.deposit_address, activated: row.activated } : undefined;
}
