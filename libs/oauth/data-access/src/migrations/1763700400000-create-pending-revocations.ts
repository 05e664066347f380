import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePendingRevocations1763700400000 implements MigrationInterface {
  name = 'CreatePendingRevocations1763700400000';

  async up(q: QueryRunner): Promise<void> {
    // A session key revoked here whose revocation the exchange has not confirmed yet: written with the key's
    // revoked_at in one statement, re-sent by the sweeper until the exchange confirms, then marked confirmed.
    await q.query(`
      CREATE TABLE oauth.pending_revocations (
        session_key varchar(42) PRIMARY KEY CHECK (session_key ~ '^0x[0-9a-f]{40}$'),
        wallet varchar(42) NOT NULL CHECK (wallet ~ '^0x[0-9a-f]{40}$'),
        grant_id varchar(255) NOT NULL,
        requested_at timestamptz NOT NULL DEFAULT now(),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        confirmed_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX pending_revocations_due_idx ON oauth.pending_revocations (next_attempt_at)
         WHERE confirmed_at IS NULL`,
    );
    // Keys revoked before this table existed had only a queue job: each is sent once more (the exchange's
    // revocation is idempotent), so none whose job Redis lost stays active on the exchange.
    await q.query(`
      INSERT INTO oauth.pending_revocations (session_key, wallet, grant_id)
      SELECT address, wallet, grant_id FROM oauth.session_key_secrets WHERE revoked_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE oauth.pending_revocations`);
  }
}
