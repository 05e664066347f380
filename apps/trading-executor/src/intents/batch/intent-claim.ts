import { type SignedIntentPayload, signedIntentSchema } from '@paper/contracts';
import { queryRows } from '@paper/sql-rows';
import type { Sql } from '../../database/sql-transaction';
import type { ClaimedIntentRow } from './batch-rows';

export type { ClaimedIntentRow } from './batch-rows';

const COLUMNS = `i.id, i.wallet, i.kind, i.payload, i.session_key, i.signature, i.created_at, i.attempts`;

/** Advisory-lock key space of the wallets a batch claims intents of (the second key is the wallet's hash). */
const WALLET_LOCK_SPACE = 7_401;

/**
 * How many of the oldest queued intents a claim looks at per intent it may take (rows of wallets other batches hold are
 * passed over).
 */
const CANDIDATES_PER_SLOT = 10;

/**
 * Claims up to `max` queued intents, oldest wallets first, plus any queued cancel intents (so a cancel
 * runs before the intent it targets whenever both wait): `FOR UPDATE SKIP LOCKED`, so concurrent batches
 * (on any replica) claim disjoint sets and never wait for each other. Intents are taken only of wallets
 * no other batch is claiming (a transaction-scoped advisory lock per wallet, tried without waiting), so
 * concurrent batches also lock disjoint accounts instead of queueing behind each other's account locks.
 * The oldest candidates are grouped by wallet, in the order of each wallet's oldest intent and in
 * acceptance order within a wallet, and the wallet locks are tried in that order only until `max` are
 * taken (a materialized list, scanned in order under the limit): a batch takes whole wallets, so a
 * backlog of many intents per wallet spreads over as many concurrent batches as there are wallets to
 * fill them, and a batch never holds the wallets of intents it did not take. The claim is the row lock: it lasts as
 * long as the
 * transaction, and a batch whose process dies releases it (and the advisory locks) with its connection.
 * `skip` names intents this replica waits to try again after a failure.
 */
export async function claimQueuedIntents(
  sql: Sql,
  max: number,
  skip: readonly string[] = [],
): Promise<ClaimedIntentRow[]> {
  const rows = await queryRows<ClaimedIntentRow>(
    sql,
    `WITH cancels AS (
       SELECT id FROM exchange.intents WHERE status = 'queued' AND kind = 'cancel' AND id <> ALL($2::varchar[])
        ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED
     ), candidates AS MATERIALIZED (
       SELECT id, wallet, row_number() OVER (ORDER BY created_at, id) AS rn
         FROM (SELECT id, wallet, created_at FROM exchange.intents WHERE status = 'queued' AND id <> ALL($2::varchar[])
                ORDER BY created_at, id LIMIT $3) oldest
     ), by_wallet AS MATERIALIZED (
       SELECT id, wallet FROM candidates ORDER BY min(rn) OVER (PARTITION BY wallet), rn
     ), free AS MATERIALIZED (
       SELECT id FROM by_wallet WHERE pg_try_advisory_xact_lock(${WALLET_LOCK_SPACE}, hashtext(wallet)) LIMIT $1
     ), oldest AS (
       SELECT id FROM exchange.intents WHERE id IN (SELECT id FROM free) AND status = 'queued' FOR UPDATE SKIP LOCKED
     )
     SELECT ${COLUMNS} FROM exchange.intents i
      WHERE i.id IN (SELECT id FROM cancels UNION SELECT id FROM oldest)
      ORDER BY i.created_at, i.id`,
    [max, skip, max * CANDIDATES_PER_SLOT],
  );
  return rows;
}

/** Claims the given intents if they are still queued and nobody else holds them. */
export async function claimIntentsById(sql: Sql, ids: readonly string[]): Promise<ClaimedIntentRow[]> {
  const rows = await queryRows<ClaimedIntentRow>(
    sql,
    `SELECT ${COLUMNS} FROM exchange.intents i WHERE i.id = ANY($1::varchar[]) AND i.status = 'queued'
      ORDER BY i.created_at, i.id FOR UPDATE SKIP LOCKED`,
    [ids],
  );
  return rows;
}

/** The signed payload of a claimed row, or null when the stored row is not a valid signed intent. */
export function claimedPayload(row: ClaimedIntentRow): SignedIntentPayload | null {
  const parsed = signedIntentSchema.safeParse({
    kind: row.kind,
    message: row.payload,
    sessionKey: row.session_key,
    signature: row.signature,
    intentId: row.id,
  });
  return parsed.success ? parsed.data : null;
}
