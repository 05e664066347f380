import { deleteGrantAndIssued } from '@paper/oauth-data';
import type { DataSource } from 'typeorm';

/** Revokes the session keys of a grant (in this service and, through the queue, on the exchange). */
export type RevokeSessionKeys = (grantId: string) => Promise<unknown>;

/**
 * Ends a connection: its session keys are revoked first (awaited, so a failure leaves the grant in place
 * to be revoked again), then the grant and everything issued from it (codes, refresh tokens) are deleted.
 */
export async function revokeGrant(
  dataSource: DataSource,
  revokeSessionKeys: RevokeSessionKeys,
  grantId: string,
): Promise<void> {
  await revokeSessionKeys(grantId);
  await deleteGrantAndIssued(dataSource, grantId);
}
