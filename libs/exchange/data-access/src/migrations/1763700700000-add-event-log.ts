import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event log: one append-only row per recorded change, written in the transaction of the change.
 * `id` is the cursor of the streams and of `get_events`; writers take a transaction-level advisory lock
 * before inserting (see `appendEvents`), so ids become visible in increasing order and a reader that
 * pages by `id > cursor` never skips an event committed later with a lower id.
 */
export class AddEventLog1763700700000 implements MigrationInterface {
  name = 'AddEventLog1763700700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE exchange.events (
      id bigserial PRIMARY KEY,
      type varchar(40) NOT NULL,
      time timestamptz NOT NULL DEFAULT clock_timestamp(),
      wallet varchar(42),
      market varchar(10),
      data jsonb NOT NULL
    )`);
    await q.query(`CREATE INDEX events_wallet_id_idx ON exchange.events (wallet, id) WHERE wallet IS NOT NULL`);
    await q.query(`CREATE INDEX events_time_idx ON exchange.events (time)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS exchange.events`);
  }
}
