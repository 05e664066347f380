import { type QueryExecutor, queryAffected, queryRow } from '@paper/sql-rows';

/** A client's request for scopes its connection to a wallet lacks. */
export interface ScopeStepUp {
  clientId: string;
  /** The wallet (the provider's account id), lower-case. */
  accountId: string;
  /** Space-separated scopes the refused call needed. */
  scope: string;
}

/**
 * How long a request for scopes holds: the refresh that follows a refusal comes at once (an MCP client
 * refreshes, then retries); a refresh much later is the connection carrying on as the owner made it.
 */
export const SCOPE_STEP_UP_SECONDS = 60;

/** Records (or renews) the request, held for SCOPE_STEP_UP_SECONDS. */
export async function recordScopeStepUp(db: QueryExecutor, stepUp: ScopeStepUp): Promise<void> {
  await queryAffected(
    db,
    `INSERT INTO oauth.scope_step_ups (client_id, account_id, scope, requested_at, expires_at)
        VALUES ($1, lower($2), $3, now(), now() + make_interval(secs => $4))
        ON CONFLICT (client_id, account_id)
        DO UPDATE SET scope = EXCLUDED.scope, requested_at = EXCLUDED.requested_at, expires_at = EXCLUDED.expires_at`,
    [stepUp.clientId, stepUp.accountId, stepUp.scope, SCOPE_STEP_UP_SECONDS],
  );
}

/** The scopes the client asked for on this wallet after `since` (and before the request expired), if any. */
export async function scopeStepUpSince(
  db: QueryExecutor,
  clientId: string,
  accountId: string,
  since: Date,
): Promise<string | undefined> {
  const row = await queryRow<{ scope: string }>(
    db,
    `SELECT scope FROM oauth.scope_step_ups
        WHERE client_id = $1 AND account_id = lower($2) AND requested_at > $3 AND expires_at > now()`,
    [clientId, accountId, since],
  );
  return row?.scope;
}
