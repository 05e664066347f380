import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Columns and indexes the executor needs: margin backed by queued winnings, undistributed win fees,
 * and indexes for daily notional (guardrails), daily roll-ups and pending intents.
 */
export class AddExchangeEngineColumns1763700400000 implements MigrationInterface {
  name = 'AddExchangeEngineColumns1763700400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE exchange.positions ADD COLUMN margin_queued_micro bigint NOT NULL DEFAULT 0
         CHECK (margin_queued_micro >= 0)`,
    );
    await q.query(
      `ALTER TABLE exchange.protocol_state ADD COLUMN fees_pending_micro bigint NOT NULL DEFAULT 0
         CHECK (fees_pending_micro >= 0)`,
    );
    await q.query(`CREATE INDEX positions_wallet_opened_idx ON exchange.positions (wallet, opened_at)`);
    await q.query(`CREATE INDEX positions_opened_at_idx ON exchange.positions (opened_at)`);
    await q.query(
      `CREATE INDEX positions_wallet_queued_idx ON exchange.positions (wallet)
         WHERE status = 'open' AND margin_queued_micro > 0`,
    );
    await q.query(`CREATE INDEX intents_status_created_idx ON exchange.intents (status, created_at)`);
    await q.query(`CREATE INDEX deposits_proxy_created_idx ON exchange.deposits (proxy_address, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS exchange.deposits_proxy_created_idx`);
    await q.query(`DROP INDEX IF EXISTS exchange.intents_status_created_idx`);
    await q.query(`DROP INDEX IF EXISTS exchange.positions_wallet_queued_idx`);
    await q.query(`DROP INDEX IF EXISTS exchange.positions_opened_at_idx`);
    await q.query(`DROP INDEX IF EXISTS exchange.positions_wallet_opened_idx`);
    await q.query(`ALTER TABLE exchange.protocol_state DROP COLUMN fees_pending_micro`);
    await q.query(`ALTER TABLE exchange.positions DROP COLUMN margin_queued_micro`);
  }
}
