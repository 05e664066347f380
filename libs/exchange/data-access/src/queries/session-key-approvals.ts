import type { GuardrailsPayload } from '@paper/contracts';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';

/** A session key with the owner's approval, as the executor checks it before running the key's intents. */
export interface SessionKeyApprovalRow {
  address: string;
  wallet: string;
  guardrails: GuardrailsPayload;
  expires_at: Date;
  approval_signature: string;
  revoked_at: Date | null;
}

/** The session keys of the given addresses (any case), by address: one statement for a whole batch. */
export async function sessionKeyApprovals(
  db: QueryExecutor,
  addresses: readonly string[],
): Promise<Map<string, SessionKeyApprovalRow>> {
  const rows = await queryRows<SessionKeyApprovalRow>(
    db,
    `SELECT address, wallet, guardrails, expires_at, approval_signature, revoked_at FROM exchange.session_keys WHERE address = ANY($1::varchar[])`,
    [[...new Set(addresses.map((a) => a.toLowerCase()))]],
  );
  return new Map(rows.map((r) => [r.address, r]));
}
