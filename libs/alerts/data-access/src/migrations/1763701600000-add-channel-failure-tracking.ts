import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sustained-failure tracking of a channel: when its deliveries started failing without a success since
 * (`failing_since`) and how many attempts failed since (`failed_attempts`); a success resets both.
 */
export class AddChannelFailureTracking1763701600000 implements MigrationInterface {
  name = 'AddChannelFailureTracking1763701600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE alerts.channels
        ADD COLUMN failing_since timestamptz,
        ADD COLUMN failed_attempts integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE alerts.channels DROP COLUMN IF EXISTS failing_since, DROP COLUMN IF EXISTS failed_attempts`,
    );
  }
}
