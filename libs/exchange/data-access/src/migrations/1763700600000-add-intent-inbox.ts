import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The inbox: the tool API writes every accepted intent and owner action as a `queued` row before it
 * answers, and the executor claims queued rows, executes them and stores the result in the same row.
 * Failed execution attempts are counted (an intent that keeps failing ends `refused`), owner actions
 * get the `queued` status, and cancel intents have a small index so a claim can take them first.
 */
export class AddIntentInbox1763700600000 implements MigrationInterface {
  name = 'AddIntentInbox1763700600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE exchange.intents ADD COLUMN attempts smallint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE exchange.intents ADD COLUMN last_error varchar(500)`);
    await q.query(
      `CREATE INDEX intents_queued_cancel_idx ON exchange.intents (created_at)
         WHERE status = 'queued' AND kind = 'cancel'`,
    );
    await q.query(`ALTER TABLE exchange.owner_actions DROP CONSTRAINT IF EXISTS owner_actions_status_check`);
    await q.query(
      `ALTER TABLE exchange.owner_actions ADD CONSTRAINT owner_actions_status_check
         CHECK (status IN ('queued', 'executed', 'refused'))`,
    );
    await q.query(`ALTER TABLE exchange.owner_actions ALTER COLUMN message DROP NOT NULL`);
    await q.query(`ALTER TABLE exchange.owner_actions ALTER COLUMN result DROP NOT NULL`);
    await q.query(`ALTER TABLE exchange.owner_actions ALTER COLUMN executed_at DROP NOT NULL`);
    await q.query(`ALTER TABLE exchange.owner_actions ALTER COLUMN executed_at DROP DEFAULT`);
    await q.query(`ALTER TABLE exchange.owner_actions ALTER COLUMN created_at SET DEFAULT now()`);
    await q.query(`ALTER TABLE exchange.owner_actions ADD COLUMN attempts smallint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE exchange.owner_actions ADD COLUMN last_error varchar(500)`);
    await q.query(`CREATE INDEX owner_actions_status_created_idx ON exchange.owner_actions (status, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS exchange.owner_actions_status_created_idx`);
    await q.query(`DELETE FROM exchange.owner_actions WHERE status = 'queued'`);
    await q.query(`ALTER TABLE exchange.owner_actions DROP COLUMN last_error`);
    await q.query(`ALTER TABLE exchange.owner_actions DROP COLUMN attempts`);
    await q.query(`ALTER TABLE exchange.owner_actions ALTER COLUMN created_at DROP DEFAULT`);
    await q.query(`ALTER TABLE exchange.owner_actions ALTER COLUMN executed_at SET DEFAULT now()`);
    await q.query(`ALTER TABLE exchange.owner_actions ALTER COLUMN executed_at SET NOT NULL`);
    await q.query(`ALTER TABLE exchange.owner_actions ALTER COLUMN result SET NOT NULL`);
    await q.query(`ALTER TABLE exchange.owner_actions ALTER COLUMN message SET NOT NULL`);
    await q.query(`ALTER TABLE exchange.owner_actions DROP CONSTRAINT owner_actions_status_check`);
    await q.query(
      `ALTER TABLE exchange.owner_actions ADD CONSTRAINT owner_actions_status_check
         CHECK (status IN ('executed', 'refused'))`,
    );
    await q.query(`DROP INDEX IF EXISTS exchange.intents_queued_cancel_idx`);
    await q.query(`ALTER TABLE exchange.intents DROP COLUMN last_error`);
    await q.query(`ALTER TABLE exchange.intents DROP COLUMN attempts`);
  }
}
