import { type QueryExecutor, queryRow } from '@paper/sql-rows';
import { z } from 'zod';
import { decimal, IdRow, int8 } from './row-fields';

export const DepositProxyRow = z.object({ address: z.string(), amount: decimal });
export type DepositProxyRow = z.infer<typeof DepositProxyRow>;

export const LatestDepositRow = z.object({ status: z.enum(['credited', 'refused']), amount_micro: int8 });
export type LatestDepositRow = z.infer<typeof LatestDepositRow>;

/** The USDC at a wallet's deposit proxy, locked (none when the wallet has no proxy balance row). */
export async function lockDepositProxy(
  db: QueryExecutor,
  wallet: string,
): Promise<{ address: string; amountMicro: bigint } | undefined> {
  const row = await queryRow<DepositProxyRow>(
    db,
    `SELECT c.address, c.amount FROM exchange.chain_balances c JOIN exchange.accounts a ON a.deposit_address = c.address
      WHERE a.wallet = $1 AND c.asset = 'USDC' FOR UPDATE OF c`,
    [wallet],
  );
  return row && { address: row.address, amountMicro: BigInt(row.amount) };
}

/** The latest deposit recorded for a proxy address. */
export async function latestDeposit(
  db: QueryExecutor,
  proxy: string,
): Promise<{ status: 'credited' | 'refused'; amountMicro: bigint } | undefined> {
  const row = await queryRow<LatestDepositRow>(
    db,
    `SELECT status, amount_micro FROM exchange.deposits WHERE proxy_address = $1 ORDER BY created_at DESC, id DESC
       LIMIT 1`,
    [proxy],
  );
  return row && { status: row.status, amountMicro: BigInt(row.amount_micro) };
}

/** Records a deposit below the minimum, left at the proxy. */
export async function recordRefusedDeposit(
  db: QueryExecutor,
  deposit: { wallet: string; proxy: string; amountMicro: bigint; message: string },
): Promise<void> {
  await db.query(
    `INSERT INTO exchange.deposits (wallet, proxy_address, amount_micro, fee_micro, status, reason)
       VALUES ($1, $2, $3, 0, 'refused', $4)`,
    [deposit.wallet, deposit.proxy, deposit.amountMicro, deposit.message],
  );
}

/**
 * Credits a deposit (the caller holds the proxy's balance row and the account): takes the amount off the
 * proxy, records the deposit, and adds `creditMicro` to the wallet's free balance, activating the account.
 * Returns the deposit's id.
 */
export async function creditDeposit(
  db: QueryExecutor,
  deposit: { wallet: string; proxy: string; amountMicro: bigint; feeMicro: bigint; creditMicro: bigint },
): Promise<string> {
  await db.query(
    `UPDATE exchange.chain_balances SET amount = amount - $2, updated_at = now() WHERE address = $1 AND asset = 'USDC'`,
    [deposit.proxy, deposit.amountMicro],
  );
  const row = await queryRow<IdRow>(
    db,
    `INSERT INTO exchange.deposits (wallet, proxy_address, amount_micro, fee_micro, status)
       VALUES ($1, $2, $3, $4, 'credited') RETURNING id::text AS id`,
    [deposit.wallet, deposit.proxy, deposit.amountMicro, deposit.feeMicro],
  );
  await db.query(
    `UPDATE exchange.accounts SET free_micro = free_micro + $2, activated = true, last_active_at = now()
       WHERE wallet = $1`,
    [deposit.wallet, deposit.creditMicro],
  );
  return row!.id;
}
