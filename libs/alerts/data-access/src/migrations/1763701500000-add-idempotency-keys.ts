import { createIdempotencyKeysTable } from '@paper/idempotency';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `Idempotency-Key`s of alerts API writes and their first answers (see IdempotencyKeyEntity). */
export class AddIdempotencyKeys1763701500000 implements MigrationInterface {
  name = 'AddIdempotencyKeys1763701500000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of createIdempotencyKeysTable('alerts.idempotency_keys', 'idempotency_keys_created_idx'))
      await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS alerts.idempotency_keys`);
  }
}
