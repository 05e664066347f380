import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate-limited answers (429) of a delivery are counted apart from its attempts: they wait exactly what
 * the receiver asked and use up no attempt, and a separate cap on their number ends a delivery that a
 * receiver keeps refusing.
 */
export class AddDeliveryRateLimited1763701000000 implements MigrationInterface {
  name = 'AddDeliveryRateLimited1763701000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE alerts.deliveries ADD COLUMN rate_limited integer NOT NULL DEFAULT 0 CHECK (rate_limited >= 0)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.deliveries DROP COLUMN IF EXISTS rate_limited`);
  }
}
