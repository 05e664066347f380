import type { DataSource } from 'typeorm';
import { SessionKeySecretEntity } from './entities/session-key-secret.entity';

/**
 * The session key the tool API may sign with for this address: approved, not revoked, not expired.
 * Returns null otherwise. The private key stays encrypted; decrypt it with SessionKeyVault just before signing.
 */
export async function findActiveSessionKeySecret(
  dataSource: DataSource,
  address: string,
  now: Date = new Date(),
): Promise<SessionKeySecretEntity | null> {
  const row = await dataSource.getRepository(SessionKeySecretEntity).findOneBy({ address: address.toLowerCase() });
  if (!row || row.revokedAt !== null || row.expiresAt.getTime() <= now.getTime()) return null;
  return row;
}
