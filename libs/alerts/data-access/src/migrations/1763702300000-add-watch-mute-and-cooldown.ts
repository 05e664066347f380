import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Quiet times of a watch, kept by the dispatcher: its alerts are recorded but not sent until `muted_until`, and
 * at most one of them is sent to a channel per `cooldown_s` seconds (0: no cooldown).
 */
export class AddWatchMuteAndCooldown1763702300000 implements MigrationInterface {
  name = 'AddWatchMuteAndCooldown1763702300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE alerts.watches
        ADD COLUMN muted_until timestamptz,
        ADD COLUMN cooldown_s integer NOT NULL DEFAULT 0 CHECK (cooldown_s >= 0 AND cooldown_s <= 86400)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.watches DROP COLUMN IF EXISTS muted_until, DROP COLUMN IF EXISTS cooldown_s`);
  }
}
