import { type QueryExecutor, queryAffected } from '@paper/sql-rows';
import { deleteConfirmedRevocations } from './pending-revocations';

/**
 * Tables whose rows carry an expiry: provider artefacts, consent progress (with pending keys), sign-in state, scope
 * requests.
 */
const EXPIRING_TABLES = [
  'oidc_models',
  'consent_requests',
  'wallet_challenges',
  'wallet_sessions',
  'scope_step_ups',
] as const;

/**
 * Deletes rows that expired more than a minute ago (they already read as absent). Abandoned consent
 * requests go too, so a pending session key that was never approved does not linger, and revocations the
 * exchange confirmed more than a week ago. Returns the count.
 */
export async function deleteExpiredRows(db: QueryExecutor): Promise<number> {
  let deleted = 0;
  for (const table of EXPIRING_TABLES) {
    deleted += await queryAffected(db, `DELETE FROM oauth.${table} WHERE expires_at <= now() - interval '1 minute'`);
  }
  return deleted + (await deleteConfirmedRevocations(db));
}
