import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tool API's client keys (`clientOrderId`, `Idempotency-Key`) of the writes, per wallet, with a hash of
 * the arguments and the first answer (@paper/idempotency's PgIdempotencyStore).
 */
export class AddToolIdempotencyKeys1763700750000 implements MigrationInterface {
  name = 'AddToolIdempotencyKeys1763700750000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE exchange.tool_idempotency_keys (
        scope text NOT NULL,
        key text NOT NULL,
        fingerprint char(64) NOT NULL,
        state varchar(16) NOT NULL,
        status integer,
        body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scope, key)
      )`);
    await q.query(`CREATE INDEX tool_idempotency_keys_created_idx ON exchange.tool_idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS exchange.tool_idempotency_keys`);
  }
}
