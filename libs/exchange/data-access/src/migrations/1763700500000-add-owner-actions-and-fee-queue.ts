import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Win fees queued with their winner's payout-queue entry (collected when the harvest pays it), the
 * staking reserve (LP above the cap waiting for stakers), claimed staking rewards, and the owner
 * actions (withdraw, stake, unstake, claim) signed by the wallet itself.
 */
export class AddOwnerActionsAndFeeQueue1763700500000 implements MigrationInterface {
  name = 'AddOwnerActionsAndFeeQueue1763700500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE exchange.payout_queue ADD COLUMN fee_original_micro bigint NOT NULL DEFAULT 0
         CHECK (fee_original_micro >= 0)`,
    );
    await q.query(
      `ALTER TABLE exchange.payout_queue ADD COLUMN fee_remaining_micro bigint NOT NULL DEFAULT 0
         CHECK (fee_remaining_micro >= 0)`,
    );
    // An entry may now hold only a queued fee (the LP paid the trader but not the whole fee).
    await q.query(`ALTER TABLE exchange.payout_queue DROP CONSTRAINT IF EXISTS payout_queue_original_micro_check`);
    await q.query(
      `ALTER TABLE exchange.payout_queue ADD CONSTRAINT payout_queue_owed_check CHECK (original_micro >= 0
         AND original_micro + fee_original_micro > 0)`,
    );
    await q.query(
      `ALTER TABLE exchange.protocol_state ADD COLUMN staking_reserve_micro bigint NOT NULL DEFAULT 0
         CHECK (staking_reserve_micro >= 0)`,
    );
    await q.query(
      `ALTER TABLE exchange.accounts ADD COLUMN staking_claimed_micro bigint NOT NULL DEFAULT 0
         CHECK (staking_claimed_micro >= 0)`,
    );
    await q.query(`
      CREATE TABLE exchange.owner_actions (
        id varchar(66) PRIMARY KEY CHECK (id ~ '^0x[0-9a-f]{64}$'),
        wallet varchar(42) NOT NULL,
        kind varchar(16) NOT NULL CHECK (kind IN ('withdraw', 'stake', 'unstake', 'claim_rewards')),
        payload jsonb NOT NULL,
        signature varchar(132) NOT NULL,
        status varchar(10) NOT NULL CHECK (status IN ('executed', 'refused')),
        reason varchar(48),
        message text NOT NULL,
        amount_micro bigint NOT NULL DEFAULT 0,
        result jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        executed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX owner_actions_wallet_created_idx ON exchange.owner_actions (wallet, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS exchange.owner_actions`);
    await q.query(`ALTER TABLE exchange.accounts DROP COLUMN staking_claimed_micro`);
    await q.query(`ALTER TABLE exchange.protocol_state DROP COLUMN staking_reserve_micro`);
    await q.query(`ALTER TABLE exchange.payout_queue DROP CONSTRAINT payout_queue_owed_check`);
    await q.query(
      `ALTER TABLE exchange.payout_queue ADD CONSTRAINT payout_queue_original_micro_check CHECK (original_micro > 0)`,
    );
    await q.query(`ALTER TABLE exchange.payout_queue DROP COLUMN fee_remaining_micro`);
    await q.query(`ALTER TABLE exchange.payout_queue DROP COLUMN fee_original_micro`);
  }
}
