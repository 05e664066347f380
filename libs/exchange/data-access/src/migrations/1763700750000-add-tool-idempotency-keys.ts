import { createIdempotencyKeysTable } from '@paper/idempotency';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tool API's client keys (`clientOrderId`, `Idempotency-Key`) of the writes, per wallet, with a hash of
 * the arguments and the first answer (@paper/idempotency's PgIdempotencyStore).
 */
export class AddToolIdempotencyKeys1763700750000 implements MigrationInterface {
  name = 'AddToolIdempotencyKeys1763700750000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of createIdempotencyKeysTable(
      'exchange.tool_idempotency_keys',
      'tool_idempotency_keys_created_idx',
    ))
      await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS exchange.tool_idempotency_keys`);
  }
}
