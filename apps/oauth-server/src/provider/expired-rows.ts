import type { DataSource } from 'typeorm';

/** Tables whose rows carry an expiry: provider artefacts, consent progress (with pending keys), sign-in state. */
const EXPIRING_TABLES = ['oidc_models', 'consent_requests', 'wallet_challenges', 'wallet_sessions'] as const;

/**
 * Deletes rows that expired more than a minute ago (they already read as absent). Abandoned consent
 * requests go too, so a pending session key that was never approved does not linger. Returns the count.
 */
export async function deleteExpiredRows(dataSource: DataSource): Promise<number> {
  let deleted = 0;
  for (const table of EXPIRING_TABLES) {
    const result = (await dataSource.query(`DELETE FROM oauth.${table} WHERE expires_at <= now() - interval '1 minute'`)) as [unknown, number];
    deleted += result[1] ?? 0;
  }
  return deleted;
}
