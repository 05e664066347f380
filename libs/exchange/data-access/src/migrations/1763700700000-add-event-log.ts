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
    // A market's status changes through any writer (operator SQL included): the event is written by the
    // database in the same transaction, under the same append lock as appendEvents (event-log.ts).
    await q.query(`CREATE FUNCTION exchange.record_market_status() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE appended bigint;
      BEGIN
        IF NEW.status IS DISTINCT FROM OLD.status THEN
          PERFORM pg_advisory_xact_lock(1163284052, 1);
          INSERT INTO exchange.events (type, market, data)
            VALUES ('market.status', NEW.market, jsonb_build_object('market', NEW.market, 'status', NEW.status,
              'previous', OLD.status))
            RETURNING id INTO appended;
          PERFORM pg_notify('exchange_events', appended::text);
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(
      `CREATE TRIGGER markets_status_event AFTER UPDATE OF status ON exchange.markets FOR EACH ROW
         EXECUTE FUNCTION exchange.record_market_status()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS markets_status_event ON exchange.markets`);
    await q.query(`DROP FUNCTION IF EXISTS exchange.record_market_status()`);
    await q.query(`DROP TABLE IF EXISTS exchange.events`);
  }
}
