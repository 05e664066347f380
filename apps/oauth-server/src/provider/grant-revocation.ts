import { deleteGrantAndIssued } from '@paper/oauth-data';
import type { DataSource } from 'typeorm';

/** Revokes the session keys of a grant: marked revoked with their pending revocation recorded, the exchange woken. */
export type RevokeSessionKeys = (grantId: string) => Promise<unknown>;

/**
 * Ends a connection: its session keys are revoked first (recorded in PostgreSQL and awaited, so a failure
 * leaves the grant in place to be revoked again), then the grant and everything issued from it (codes,
 * refresh tokens) are deleted. The exchange's revocation completes from the record (RevocationSweeper).
 */
export async function revokeGrant(
  dataSource: DataSource,
  revokeSessionKeys: RevokeSessionKeys,
  grantId: string,
): Promise<void> {
  await revokeSessionKeys(grantId);
  await deleteGrantAndIssued(dataSource, grantId);
}
