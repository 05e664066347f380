import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `Idempotency-Key`s of alerts API writes and their first answers (see IdempotencyKeyEntity). */
export class AddIdempotencyKeys1763701500000 implements MigrationInterface {
  name = 'AddIdempotencyKeys1763701500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alerts.idempotency_keys (
        scope text NOT NULL,
        key text NOT NULL,
        fingerprint char(64) NOT NULL,
        state varchar(16) NOT NULL,
        status integer,
        body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scope, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_created_idx ON alerts.idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS alerts.idempotency_keys`);
  }
}
