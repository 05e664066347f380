import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook secret rotation: the secret a rotation replaced keeps signing (beside the new one) until
 * `previous_secret_expires_at`, so receivers switch over without a failed verification.
 */
export class AddChannelSecretRotation1763701400000 implements MigrationInterface {
  name = 'AddChannelSecretRotation1763701400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE alerts.channels
        ADD COLUMN previous_secret text,
        ADD COLUMN previous_secret_expires_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE alerts.channels DROP COLUMN IF EXISTS previous_secret, DROP COLUMN IF EXISTS previous_secret_expires_at`);
  }
}
