import { type QueryExecutor, queryRows } from './chain-balances';

/**
 * The guardrails' day: a session key's daily notional limit counts what the wallet opened since UTC
 * midnight of the statement's clock. The one definition of that window, used by the tool API's checks and
 * report and by the executor's batch admission (SQL fragment over `exchange.positions`, alias optional).
 */
export function openedTodaySql(alias?: string): string {
  return `${alias ? `${alias}.` : ''}opened_at >= (date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
}

/** What a wallet opened in the guardrails' day (micro-USDC notional) and how many positions it holds open. */
export async function dailyUsage(db: QueryExecutor, wallet: string): Promise<{ usedMicro: bigint; openPositions: number }> {
  const [row] = await queryRows<{ used: string; open: string }>(
    db,
    `SELECT COALESCE(SUM(notional_micro) FILTER (WHERE ${openedTodaySql()}), 0) AS used,
            COUNT(*) FILTER (WHERE status = 'open') AS open
       FROM exchange.positions WHERE wallet = $1`,
    [wallet],
  );
  return { usedMicro: BigInt(row?.used ?? 0), openPositions: Number(row?.open ?? 0) };
}
