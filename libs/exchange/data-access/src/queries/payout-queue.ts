import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { int8 } from './row-fields';

/**
 * An unpaid win joining the back of the payout queue: the trader's unpaid winnings and the unpaid part of the win fee.
 */
export interface PayoutAppend {
  wallet: string;
  positionId: string;
  amountMicro: bigint;
  feeMicro: bigint;
}

/**
 * Appends what the LP could not pay for winning positions to the back of the payout queue, in the given
 * order (one statement): the trader's unpaid winnings and the unpaid part of the win fee (collected after
 * the trader is paid). The caller holds the protocol lock (every change of the queue does).
 */
export async function appendPayouts(db: QueryExecutor, appends: readonly PayoutAppend[]): Promise<void> {
  const owed = appends.filter((a) => a.amountMicro > 0n || a.feeMicro > 0n);
  if (owed.length === 0) return;
  await db.query(
    `INSERT INTO exchange.payout_queue (wallet, position_id, original_micro, remaining_micro, fee_original_micro,
       fee_remaining_micro, created_at)
     SELECT wallet, position_id, amount, amount, fee, fee, now()
       FROM unnest($1::varchar[], $2::bigint[], $3::bigint[], $4::bigint[])
         WITH ORDINALITY AS v(wallet, position_id, amount, fee, n)
      ORDER BY n`,
    [
      owed.map((a) => a.wallet),
      owed.map((a) => a.positionId),
      owed.map((a) => a.amountMicro.toString()),
      owed.map((a) => a.feeMicro.toString()),
    ],
  );
}

/** An unpaid payout queue entry: what is still owed to the trader and of the queued win fee. */
export interface UnpaidPayout {
  id: string;
  wallet: string;
  positionId: string;
  remainingMicro: bigint;
  feeRemainingMicro: bigint;
}

export const UnpaidPayoutRow = z.object({
  id: int8,
  wallet: z.string(),
  position_id: int8,
  remaining_micro: int8,
  fee_remaining_micro: int8,
});
export type UnpaidPayoutRow = z.infer<typeof UnpaidPayoutRow>;

export const OwnClaimRow = z.object({ id: int8, remaining_micro: int8 });
export type OwnClaimRow = z.infer<typeof OwnClaimRow>;

export const PledgedMarginRow = z.object({ id: int8, margin_queued_micro: int8 });
export type PledgedMarginRow = z.infer<typeof PledgedMarginRow>;

/**
 * The head of the payout queue (oldest first, at most `limit`), locked when `lock` (the caller holds the protocol
 * lock).
 */
export async function unpaidPayoutHead(db: QueryExecutor, limit: number, lock: boolean): Promise<UnpaidPayout[]> {
  const rows = await queryRows<UnpaidPayoutRow>(
    db,
    `SELECT id, wallet, position_id, remaining_micro, fee_remaining_micro FROM exchange.payout_queue
      WHERE paid_at IS NULL ORDER BY id LIMIT $1${lock ? ' FOR UPDATE' : ''}`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    wallet: r.wallet,
    positionId: r.position_id,
    remainingMicro: BigInt(r.remaining_micro),
    feeRemainingMicro: BigInt(r.fee_remaining_micro),
  }));
}

/** A harvest payment of an entry: the trader's part and then its queued fee; settled when both reach zero. */
export async function payQueueEntry(
  db: QueryExecutor,
  id: string,
  traderMicro: bigint,
  feeMicro: bigint,
): Promise<void> {
  await db.query(
    `UPDATE exchange.payout_queue SET remaining_micro = remaining_micro - $2,
       fee_remaining_micro = fee_remaining_micro - $3,
            paid_at = CASE WHEN remaining_micro - $2 = 0 AND fee_remaining_micro - $3 = 0 THEN now() ELSE NULL END
      WHERE id = $1`,
    [id, traderMicro, feeMicro],
  );
}

/**
 * A loss paid with margin that queued winnings backed: the trader's own queue entries shrink by
 * `amountMicro`, newest first (an entry reduced to zero is settled unless it still owes a queued fee).
 * The caller holds the account lock and the protocol lock.
 */
export async function cancelOwnClaims(db: QueryExecutor, wallet: string, amountMicro: bigint): Promise<void> {
  let left = amountMicro;
  if (left <= 0n) return;
  const rows = await queryRows<OwnClaimRow>(
    db,
    `SELECT id, remaining_micro FROM exchange.payout_queue
       WHERE wallet = $1 AND paid_at IS NULL AND remaining_micro > 0 ORDER BY id DESC FOR UPDATE`,
    [wallet],
  );
  for (const row of rows) {
    if (left === 0n) break;
    const remaining = BigInt(row.remaining_micro);
    const take = remaining <= left ? remaining : left;
    left -= take;
    await db.query(
      `UPDATE exchange.payout_queue SET remaining_micro = remaining_micro - $2,
              paid_at = CASE WHEN remaining_micro - $2 = 0 AND fee_remaining_micro = 0 THEN now() ELSE NULL END
                WHERE id = $1`,
      [row.id, take],
    );
  }
  if (left > 0n) throw new Error(`Queued winnings of ${wallet} do not cover ${amountMicro} of queued-backed margin`);
}

/** Queued winnings paid to a trader whose queued balance already backs open margin: that margin becomes cash-backed. */
export async function releasePledgedMargin(db: QueryExecutor, wallet: string, amountMicro: bigint): Promise<void> {
  let left = amountMicro;
  if (left <= 0n) return;
  const rows = await queryRows<PledgedMarginRow>(
    db,
    `SELECT id, margin_queued_micro FROM exchange.positions
      WHERE wallet = $1 AND status = 'open' AND margin_queued_micro > 0 ORDER BY id FOR UPDATE`,
    [wallet],
  );
  for (const row of rows) {
    if (left === 0n) break;
    const pledged = BigInt(row.margin_queued_micro);
    const take = pledged <= left ? pledged : left;
    left -= take;
    await db.query(`UPDATE exchange.positions SET margin_queued_micro = margin_queued_micro - $2 WHERE id = $1`, [
      row.id,
      take,
    ]);
  }
  if (left > 0n) throw new Error(`Pledged margin of ${wallet} is below the ${amountMicro} released`);
}
