import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the poller and the dispatcher need beyond the first tables: poll duration and a small JSON
 * document per poll job (feed cursor, last market statuses, reward-token supply samples), per-account
 * state of the protocol rules, and an index the delivery sweeper uses for attempts cut short.
 */
export class AddAlertsPollingState1763700800000 implements MigrationInterface {
  name = 'AddAlertsPollingState1763700800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE alerts.poll_status ADD COLUMN last_duration_ms integer, ADD COLUMN details jsonb NOT NULL DEFAULT '{}'::jsonb`,
    );
    await q.query(`
      CREATE TABLE alerts.protocol_rule_state (
        account_id uuid NOT NULL REFERENCES alerts.accounts(id) ON DELETE CASCADE,
        rule varchar(32) NOT NULL,
        state jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, rule)
      )`);
    await q.query(`CREATE INDEX deliveries_sending_idx ON alerts.deliveries (updated_at) WHERE status = 'sending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS alerts.deliveries_sending_idx`);
    await q.query(`DROP TABLE IF EXISTS alerts.protocol_rule_state`);
    await q.query(
      `ALTER TABLE alerts.poll_status DROP COLUMN IF EXISTS details, DROP COLUMN IF EXISTS last_duration_ms`,
    );
  }
}
