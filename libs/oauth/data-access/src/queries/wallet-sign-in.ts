import { type QueryExecutor, queryRow } from '@paper/sql-rows';

/** A sign-in challenge as consumed: the wallet asked to sign and the message it was given. */
export interface WalletChallengeRow {
  wallet: string;
  message: string;
}

/**
 * Consumes a live sign-in challenge of this interaction (null: none) once; undefined when it expired,
 * was already used or belongs to another interaction.
 */
export function consumeWalletChallenge(
  db: QueryExecutor,
  challengeId: string,
  interactionUid: string | null,
): Promise<WalletChallengeRow | undefined> {
  return queryRow<WalletChallengeRow>(
    db,
    `UPDATE oauth.wallet_challenges SET consumed_at = now()
        WHERE id = $1 AND consumed_at IS NULL AND expires_at > now() AND interaction_uid IS NOT DISTINCT FROM $2
        RETURNING wallet, message`,
    [challengeId, interactionUid],
  );
}

/** The wallet of a live signed-in session, by the hash of its token. */
export async function walletOfSession(db: QueryExecutor, tokenHash: string): Promise<string | undefined> {
  const row = await queryRow<{ wallet: string }>(
    db,
    `SELECT wallet FROM oauth.wallet_sessions WHERE id = $1 AND expires_at > now()`,
    [tokenHash],
  );
  return row?.wallet;
}

export async function deleteWalletSession(db: QueryExecutor, tokenHash: string): Promise<void> {
  await db.query(`DELETE FROM oauth.wallet_sessions WHERE id = $1`, [tokenHash]);
}
