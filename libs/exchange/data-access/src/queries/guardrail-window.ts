import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { decimal, int8 } from './row-fields';

/**
 * The guardrails' day: a session key's daily notional limit counts what the wallet opened since UTC
 * midnight of the statement's clock. The one definition of that window, used by the tool API's checks and
 * report and by the executor's batch admission (SQL fragment over `exchange.positions`, alias optional).
 */
export function openedTodaySql(alias?: string): string {
  return `${alias ? `${alias}.` : ''}opened_at >= (date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
}

export const DailyUsageRow = z.object({ used: decimal, open: int8 });
export type DailyUsageRow = z.infer<typeof DailyUsageRow>;

export const TradingAccountRow = z.object({ free_micro: int8, queued_micro: int8, daily: decimal, open: int8 });
export type TradingAccountRow = z.infer<typeof TradingAccountRow>;

/** What a wallet opened in the guardrails' day (micro-USDC notional) and how many positions it holds open. */
export async function dailyUsage(
  db: QueryExecutor,
  wallet: string,
): Promise<{ usedMicro: bigint; openPositions: number }> {
  const [row] = await queryRows<DailyUsageRow>(
    db,
    `SELECT COALESCE(SUM(notional_micro) FILTER (WHERE ${openedTodaySql()}), 0) AS used,
            COUNT(*) FILTER (WHERE status = 'open') AS open
       FROM exchange.positions WHERE wallet = $1`,
    [wallet],
  );
  return { usedMicro: BigInt(row?.used ?? 0), openPositions: Number(row?.open ?? 0) };
}

/** What the pre-trade checks read of an account: spendable balances and the guardrails' usage. */
export interface TradingAccount {
  freeMicro: bigint;
  queuedMicro: bigint;
  /** Notional opened in the guardrails' day. */
  dailyNotionalMicro: bigint;
  openPositions: number;
}

/** The account's balances and usage for the pre-trade checks; undefined when the wallet has no account. */
export async function tradingAccount(db: QueryExecutor, wallet: string): Promise<TradingAccount | undefined> {
  const [row] = await queryRows<TradingAccountRow>(
    db,
    `SELECT a.free_micro, a.queued_micro,
            (SELECT COALESCE(SUM(notional_micro), 0) FROM exchange.positions p
              WHERE p.wallet = a.wallet AND ${openedTodaySql('p')}) AS daily,
            (SELECT COUNT(*) FROM exchange.positions p WHERE p.wallet = a.wallet AND p.status = 'open') AS open
       FROM exchange.accounts a WHERE a.wallet = $1`,
    [wallet],
  );
  if (!row) return undefined;
  return {
    freeMicro: BigInt(row.free_micro),
    queuedMicro: BigInt(row.queued_micro),
    dailyNotionalMicro: BigInt(row.daily),
    openPositions: Number(row.open),
  };
}
