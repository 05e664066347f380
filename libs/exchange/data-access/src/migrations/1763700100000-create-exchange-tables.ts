import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateExchangeTables1763700100000 implements MigrationInterface {
  name = 'CreateExchangeTables1763700100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE exchange.accounts (
        wallet varchar(42) PRIMARY KEY CHECK (wallet ~ '^0x[0-9a-f]{40}$'),
        display_name varchar(64),
        deposit_address varchar(42) NOT NULL UNIQUE,
        activated boolean NOT NULL DEFAULT false,
        free_micro bigint NOT NULL DEFAULT 0 CHECK (free_micro >= 0),
        locked_micro bigint NOT NULL DEFAULT 0 CHECK (locked_micro >= 0),
        queued_micro bigint NOT NULL DEFAULT 0 CHECK (queued_micro >= 0),
        paper_micro bigint NOT NULL DEFAULT 0 CHECK (paper_micro >= 0),
        staked_micro bigint NOT NULL DEFAULT 0 CHECK (staked_micro >= 0),
        realized_pnl_micro bigint NOT NULL DEFAULT 0,
        total_volume_micro bigint NOT NULL DEFAULT 0,
        fees_paid_micro bigint NOT NULL DEFAULT 0,
        staking_rewards_micro bigint NOT NULL DEFAULT 0,
        last_active_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE exchange.ledger_entries (
        id bigserial PRIMARY KEY,
        tx_id uuid NOT NULL,
        owner varchar(42) NOT NULL,
        bucket varchar(24) NOT NULL,
        amount_micro bigint NOT NULL,
        reason varchar(32) NOT NULL,
        ref varchar(80),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ledger_entries_owner_created_idx ON exchange.ledger_entries (owner, created_at)`);
    await q.query(`CREATE INDEX ledger_entries_tx_idx ON exchange.ledger_entries (tx_id)`);
    await q.query(`
      CREATE TABLE exchange.positions (
        id bigserial PRIMARY KEY,
        wallet varchar(42) NOT NULL REFERENCES exchange.accounts(wallet),
        market varchar(8) NOT NULL,
        side varchar(5) NOT NULL CHECK (side IN ('long', 'short')),
        margin_micro bigint NOT NULL CHECK (margin_micro > 0),
        leverage integer NOT NULL CHECK (leverage BETWEEN 1 AND 1000),
        notional_micro bigint NOT NULL,
        entry_price bigint NOT NULL,
        bust_price bigint NOT NULL,
        status varchar(10) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed', 'liquidated')),
        exit_price bigint,
        pnl_micro bigint,
        fee_micro bigint NOT NULL DEFAULT 0,
        queued_micro bigint NOT NULL DEFAULT 0,
        reward_minted_micro bigint NOT NULL DEFAULT 0,
        open_intent_id varchar(66) UNIQUE,
        close_intent_id varchar(66),
        opened_at timestamptz NOT NULL,
        closed_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX positions_open_bust_idx ON exchange.positions (market, side, bust_price) WHERE status = 'open'`,
    );
    await q.query(`CREATE INDEX positions_wallet_status_idx ON exchange.positions (wallet, status)`);
    await q.query(`CREATE INDEX positions_closed_at_idx ON exchange.positions (closed_at)`);
    await q.query(`
      CREATE TABLE exchange.intents (
        id varchar(66) PRIMARY KEY CHECK (id ~ '^0x[0-9a-f]{64}$'),
        wallet varchar(42) NOT NULL,
        kind varchar(8) NOT NULL CHECK (kind IN ('open', 'close', 'cancel')),
        payload jsonb NOT NULL,
        session_key varchar(42) NOT NULL,
        signature varchar(132) NOT NULL,
        status varchar(10) NOT NULL CHECK (status IN ('queued', 'executed', 'refused', 'cancelled', 'expired')),
        reason varchar(48),
        message text,
        result jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        executed_at timestamptz
      )`);
    await q.query(`CREATE INDEX intents_wallet_created_idx ON exchange.intents (wallet, created_at)`);
    await q.query(`
      CREATE TABLE exchange.session_keys (
        address varchar(42) PRIMARY KEY,
        wallet varchar(42) NOT NULL,
        guardrails jsonb NOT NULL,
        expires_at timestamptz NOT NULL,
        approval_signature varchar(132) NOT NULL,
        label varchar(120),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX session_keys_wallet_idx ON exchange.session_keys (wallet)`);
    await q.query(`
      CREATE TABLE exchange.protocol_state (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        trading_enabled boolean NOT NULL DEFAULT true,
        lp_micro bigint NOT NULL DEFAULT 0 CHECK (lp_micro >= 0),
        parked_micro bigint NOT NULL DEFAULT 0 CHECK (parked_micro >= 0),
        reward_high_water_micro bigint NOT NULL DEFAULT 0,
        fees_micro bigint NOT NULL DEFAULT 0,
        swept_to_stakers_micro bigint NOT NULL DEFAULT 0,
        paper_supply_micro bigint NOT NULL DEFAULT 0,
        lifetime_volume_micro bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO exchange.protocol_state (id) VALUES (1)`);
    await q.query(`
      CREATE TABLE exchange.markets (
        market varchar(8) PRIMARY KEY,
        status varchar(12) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paused', 'close-only')),
        long_oi_cap_micro bigint,
        short_oi_cap_micro bigint,
        long_oi_micro bigint NOT NULL DEFAULT 0,
        short_oi_micro bigint NOT NULL DEFAULT 0
      )`);
    await q.query(`INSERT INTO exchange.markets (market) VALUES ('BTC'), ('ETH')`);
    await q.query(`
      CREATE TABLE exchange.payout_queue (
        id bigserial PRIMARY KEY,
        wallet varchar(42) NOT NULL,
        position_id bigint NOT NULL REFERENCES exchange.positions(id),
        original_micro bigint NOT NULL CHECK (original_micro > 0),
        remaining_micro bigint NOT NULL CHECK (remaining_micro >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        paid_at timestamptz
      )`);
    await q.query(`CREATE INDEX payout_queue_pending_idx ON exchange.payout_queue (id) WHERE paid_at IS NULL`);
    await q.query(`CREATE INDEX payout_queue_wallet_idx ON exchange.payout_queue (wallet)`);
    await q.query(`
      CREATE TABLE exchange.equity_snapshots (
        wallet varchar(42) NOT NULL,
        taken_at timestamptz NOT NULL,
        equity_micro bigint NOT NULL,
        free_micro bigint NOT NULL,
        locked_micro bigint NOT NULL,
        unrealized_pnl_micro bigint NOT NULL,
        PRIMARY KEY (wallet, taken_at)
      )`);
    await q.query(`
      CREATE TABLE exchange.daily_stats (
        day date PRIMARY KEY,
        volume_micro bigint NOT NULL DEFAULT 0,
        trader_pnl_micro bigint NOT NULL DEFAULT 0,
        fees_micro bigint NOT NULL DEFAULT 0,
        liquidations integer NOT NULL DEFAULT 0,
        liquidated_micro bigint NOT NULL DEFAULT 0,
        users integer NOT NULL DEFAULT 0,
        new_users integer NOT NULL DEFAULT 0,
        trades integer NOT NULL DEFAULT 0,
        lp_micro bigint NOT NULL DEFAULT 0
      )`);
    await q.query(`
      CREATE TABLE exchange.chain_balances (
        address varchar(42) NOT NULL,
        asset varchar(8) NOT NULL CHECK (asset IN ('USDC', 'ETH')),
        amount numeric(78, 0) NOT NULL DEFAULT 0 CHECK (amount >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (address, asset)
      )`);
    await q.query(`
      CREATE TABLE exchange.deposits (
        id bigserial PRIMARY KEY,
        wallet varchar(42) NOT NULL,
        proxy_address varchar(42) NOT NULL,
        amount_micro bigint NOT NULL,
        fee_micro bigint NOT NULL DEFAULT 0,
        status varchar(10) NOT NULL CHECK (status IN ('credited', 'refused')),
        reason text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX deposits_wallet_created_idx ON exchange.deposits (wallet, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'deposits',
      'chain_balances',
      'daily_stats',
      'equity_snapshots',
      'payout_queue',
      'markets',
      'protocol_state',
      'session_keys',
      'intents',
      'positions',
      'ledger_entries',
      'accounts',
    ]) {
      await q.query(`DROP TABLE IF EXISTS exchange.${table}`);
    }
  }
}
