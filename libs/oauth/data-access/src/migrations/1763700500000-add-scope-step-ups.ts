import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddScopeStepUps1763700500000 implements MigrationInterface {
  name = 'AddScopeStepUps1763700500000';

  async up(q: QueryRunner): Promise<void> {
    // A client refused for a scope its connection lacks (403 insufficient_scope from a resource server):
    // its next refresh of that connection is answered invalid_grant, so it starts a new authorization
    // where the owner can grant the scope (scope-step-up.ts in oauth-server). One row per client and wallet.
    await q.query(`
      CREATE TABLE oauth.scope_step_ups (
        client_id varchar(255) NOT NULL,
        account_id varchar(255) NOT NULL,
        scope text NOT NULL,
        requested_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (client_id, account_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE oauth.scope_step_ups`);
  }
}
