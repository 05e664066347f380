import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOauthTables1763700300000 implements MigrationInterface {
  name = 'CreateOauthTables1763700300000';

  async up(q: QueryRunner): Promise<void> {
    // Every artefact of the authorization server (clients, grants, codes, refresh tokens, sessions,
    // interactions), so any replica can serve any step of a flow.
    await q.query(`
      CREATE TABLE oauth.oidc_models (
        kind varchar(48) NOT NULL,
        id varchar(255) NOT NULL,
        payload jsonb NOT NULL,
        grant_id varchar(255),
        user_code varchar(255),
        uid varchar(255),
        expires_at timestamptz,
        consumed_at timestamptz,
        PRIMARY KEY (kind, id)
      )`);
    await q.query(`CREATE INDEX oidc_models_grant_id_idx ON oauth.oidc_models (grant_id) WHERE grant_id IS NOT NULL`);
    await q.query(`CREATE INDEX oidc_models_uid_idx ON oauth.oidc_models (uid) WHERE uid IS NOT NULL`);
    await q.query(
      `CREATE INDEX oidc_models_user_code_idx ON oauth.oidc_models (user_code) WHERE user_code IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX oidc_models_expires_at_idx ON oauth.oidc_models (expires_at) WHERE expires_at IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX oidc_models_grant_account_idx ON oauth.oidc_models ((payload->>'accountId')) WHERE kind = 'Grant'`,
    );

    // Development-only generated key material (JWT signing keys, cookie keys), shared by every replica.
    await q.query(`
      CREATE TABLE oauth.signing_keys (
        id varchar(64) PRIMARY KEY,
        purpose varchar(16) NOT NULL CHECK (purpose IN ('jwt', 'cookie')),
        material jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE oauth.session_key_secrets (
        address varchar(42) PRIMARY KEY CHECK (address ~ '^0x[0-9a-f]{40}$'),
        wallet varchar(42) NOT NULL CHECK (wallet ~ '^0x[0-9a-f]{40}$'),
        encrypted_private_key text NOT NULL,
        client_id varchar(255) NOT NULL,
        grant_id varchar(255) NOT NULL,
        guardrails jsonb NOT NULL,
        label varchar(120),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX session_key_secrets_wallet_idx ON oauth.session_key_secrets (wallet, created_at)`);
    await q.query(`CREATE INDEX session_key_secrets_grant_idx ON oauth.session_key_secrets (grant_id)`);

    await q.query(`
      CREATE TABLE oauth.wallet_challenges (
        id uuid PRIMARY KEY,
        wallet varchar(42) NOT NULL CHECK (wallet ~ '^0x[0-9a-f]{40}$'),
        message text NOT NULL,
        interaction_uid varchar(255),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz
      )`);

    await q.query(`
      CREATE TABLE oauth.wallet_sessions (
        id char(64) PRIMARY KEY,
        wallet varchar(42) NOT NULL CHECK (wallet ~ '^0x[0-9a-f]{40}$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);

    await q.query(`
      CREATE TABLE oauth.consent_requests (
        uid varchar(255) PRIMARY KEY,
        wallet varchar(42) CHECK (wallet ~ '^0x[0-9a-f]{40}$'),
        session_key_address varchar(42),
        encrypted_private_key text,
        guardrails jsonb,
        key_expires_at timestamptz,
        approving_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'consent_requests',
      'wallet_sessions',
      'wallet_challenges',
      'session_key_secrets',
      'signing_keys',
      'oidc_models',
    ]) {
      await q.query(`DROP TABLE IF EXISTS oauth.${table}`);
    }
  }
}
