import { guardrailsSchema } from '@paper/contracts';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { timestamp } from './row-fields';

/** A session key with the owner's approval, as the executor checks it before running the key's intents. */
export const SessionKeyApprovalRow = z.object({
  address: z.string(),
  wallet: z.string(),
  guardrails: guardrailsSchema,
  expires_at: timestamp,
  approval_signature: z.string(),
  revoked_at: timestamp.nullable(),
});
export type SessionKeyApprovalRow = z.infer<typeof SessionKeyApprovalRow>;

/**
 * The session keys of the given addresses (any case), by address: one statement for a whole batch,
 * share-locked until the batch commits. A revocation waits for batches that read the key as active, so
 * once the exchange has a key revoked (and the owner is told so) no intent signed by it fills any more.
 */
export async function sessionKeyApprovals(
  db: QueryExecutor,
  addresses: readonly string[],
): Promise<Map<string, SessionKeyApprovalRow>> {
  const rows = await queryRows<SessionKeyApprovalRow>(
    db,
    `SELECT address, wallet, guardrails, expires_at, approval_signature, revoked_at FROM exchange.session_keys
       WHERE address = ANY($1::varchar[]) FOR SHARE`,
    [[...new Set(addresses.map((a) => a.toLowerCase()))]],
  );
  return new Map(rows.map((r) => [r.address, r]));
}
