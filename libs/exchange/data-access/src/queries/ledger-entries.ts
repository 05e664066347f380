import type { LedgerLine } from '@paper/exchange';
import type { QueryExecutor } from '@paper/sql-rows';
import { randomUUID } from 'node:crypto';

/** One balanced transfer set (one `tx_id`) with what moved it and the position/intent/deposit it belongs to. */
export interface LedgerTx {
  readonly lines: readonly LedgerLine[];
  readonly reason: string;
  readonly ref: string | null;
}

/** Inserts the lines of many ledger transactions in one statement; each set gets its own tx id. */
export async function writeLedger(db: QueryExecutor, txs: readonly LedgerTx[]): Promise<void> {
  const txIds: string[] = [];
  const owners: string[] = [];
  const buckets: string[] = [];
  const amounts: string[] = [];
  const reasons: string[] = [];
  const refs: (string | null)[] = [];
  for (const tx of txs) {
    if (tx.lines.length === 0) continue;
    const txId = randomUUID();
    for (const line of tx.lines) {
      txIds.push(txId);
      owners.push(line.owner);
      buckets.push(line.bucket);
      amounts.push(line.amountMicro.toString());
      reasons.push(tx.reason);
      refs.push(tx.ref);
    }
  }
  if (txIds.length === 0) return;
  await db.query(
    `INSERT INTO exchange.ledger_entries (tx_id, owner, bucket, amount_micro, reason, ref)
     SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::bigint[], $5::varchar[], $6::varchar[])`,
    [txIds, owners, buckets, amounts, reasons, refs],
  );
}
