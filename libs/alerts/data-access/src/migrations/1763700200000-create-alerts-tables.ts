import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAlertsTables1763700200000 implements MigrationInterface {
  name = 'CreateAlertsTables1763700200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alerts.accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash char(64) NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE alerts.watches (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES alerts.accounts(id) ON DELETE CASCADE,
        address varchar(42) NOT NULL CHECK (address ~ '^0x[0-9a-f]{40}$'),
        role varchar(16),
        label varchar(100),
        rules jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX watches_account_address_role_key ON alerts.watches (account_id, address, coalesce(role, ''))`,
    );
    await q.query(`CREATE INDEX watches_address_idx ON alerts.watches (address)`);
    await q.query(`
      CREATE TABLE alerts.channels (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES alerts.accounts(id) ON DELETE CASCADE,
        kind varchar(16) NOT NULL CHECK (kind IN ('discord', 'webhook', 'telegram')),
        target text NOT NULL,
        secret text,
        label varchar(100),
        status varchar(16) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'disabled')),
        disabled_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX channels_account_idx ON alerts.channels (account_id, created_at)`);
    await q.query(
      `CREATE UNIQUE INDEX channels_telegram_chat_key ON alerts.channels (account_id, target) WHERE kind = 'telegram'`,
    );
    await q.query(`
      CREATE TABLE alerts.protocol_rules (
        account_id uuid PRIMARY KEY REFERENCES alerts.accounts(id) ON DELETE CASCADE,
        rules jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE alerts.rule_state (
        watch_id uuid NOT NULL REFERENCES alerts.watches(id) ON DELETE CASCADE,
        rule varchar(32) NOT NULL,
        state jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (watch_id, rule)
      )`);
    await q.query(`
      CREATE TABLE alerts.alerts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES alerts.accounts(id) ON DELETE CASCADE,
        watch_id uuid REFERENCES alerts.watches(id) ON DELETE SET NULL,
        event_id varchar(128) NOT NULL,
        kind varchar(32) NOT NULL,
        wallet varchar(42),
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        occurred_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (account_id, event_id)
      )`);
    await q.query(`CREATE INDEX alerts_account_created_idx ON alerts.alerts (account_id, created_at DESC, id DESC)`);
    await q.query(`
      CREATE TABLE alerts.deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES alerts.accounts(id) ON DELETE CASCADE,
        alert_id uuid NOT NULL REFERENCES alerts.alerts(id) ON DELETE CASCADE,
        channel_id uuid NOT NULL REFERENCES alerts.channels(id) ON DELETE CASCADE,
        event_id varchar(128) NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'delivered', 'failed', 'dead')),
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        last_error text,
        next_attempt_at timestamptz,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (alert_id, channel_id)
      )`);
    await q.query(`CREATE INDEX deliveries_channel_idx ON alerts.deliveries (channel_id)`);
    await q.query(
      `CREATE INDEX deliveries_dead_idx ON alerts.deliveries (account_id, updated_at DESC) WHERE status = 'dead'`,
    );
    await q.query(
      `CREATE INDEX deliveries_due_idx ON alerts.deliveries (next_attempt_at) WHERE status IN ('queued', 'failed')`,
    );
    await q.query(`
      CREATE TABLE alerts.telegram_link_codes (
        code varchar(64) PRIMARY KEY CHECK (code ~ '^[A-Za-z0-9_-]{1,64}$'),
        account_id uuid NOT NULL REFERENCES alerts.accounts(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX telegram_link_codes_account_idx ON alerts.telegram_link_codes (account_id)`);
    await q.query(`
      CREATE TABLE alerts.poll_status (
        name varchar(32) PRIMARY KEY,
        last_started_at timestamptz,
        last_finished_at timestamptz,
        last_ok boolean,
        last_error text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'poll_status',
      'telegram_link_codes',
      'deliveries',
      'alerts',
      'rule_state',
      'protocol_rules',
      'channels',
      'watches',
      'accounts',
    ]) {
      await q.query(`DROP TABLE IF EXISTS alerts.${table}`);
    }
  }
}
