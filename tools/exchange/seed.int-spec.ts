import { createTestDatabase, migrateDatabase, type TestDatabase } from '@paper/dev-stack';
import { auditLedger } from '@paper/exchange-data';
import { Client } from 'pg';
import { seedExchange } from './seed';

describe('db:seed (PostgreSQL)', () => {
  let database: TestDatabase;
  let db: Client;

  beforeAll(async () => {
    database = await createTestDatabase('paper_seed');
    migrateDatabase(database.url, ['exchange']);
    db = new Client({ connectionString: database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  it('fills an empty exchange with trading history whose books balance', async () => {
    const outcome = await seedExchange(database.url, { wallets: 80, days: 10, log: () => undefined });
    expect(outcome).toMatchObject({ seeded: true, accounts: 90 });
    const count = async (sql: string) => Number((await db.query(sql)).rows[0].n);
    expect(await count(`SELECT count(*) AS n FROM exchange.positions WHERE status = 'open'`)).toBeGreaterThan(5);
    expect(await count(`SELECT count(*) AS n FROM exchange.positions WHERE status = 'closed'`)).toBeGreaterThan(100);
    expect(await count(`SELECT count(*) AS n FROM exchange.positions WHERE status = 'liquidated'`)).toBeGreaterThan(20);
    expect(await count(`SELECT count(*) AS n FROM exchange.payout_queue WHERE paid_at IS NULL`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*) AS n FROM exchange.accounts WHERE staked_micro > 0`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*) AS n FROM exchange.daily_stats`)).toBeGreaterThanOrEqual(10);
    expect(await count(`SELECT count(*) AS n FROM exchange.equity_snapshots`)).toBeGreaterThan(1000);
    expect(
      await count(`SELECT count(*) AS n FROM exchange.positions WHERE closed_at > now() - interval '24 hours'`),
    ).toBeGreaterThan(10);
    expect(await auditLedger(db)).toEqual([]);
    const [stats] = (await db.query(`SELECT sum(volume_micro) AS v FROM exchange.daily_stats`)).rows;
    const [p] = (await db.query(`SELECT lifetime_volume_micro AS v FROM exchange.protocol_state`)).rows;
    expect(stats.v).toBe(p.v);
    // New positions continue after the seeded ids.
    const { rows } = await db.query(
      `SELECT nextval('exchange.positions_id_seq') AS id, (SELECT max(id) FROM exchange.positions) AS max`,
    );
    expect(BigInt(rows[0].id)).toBe(BigInt(rows[0].max) + 1n);
  });

  it('refuses to seed an exchange that already has accounts', async () => {
    const outcome = await seedExchange(database.url, { wallets: 10, days: 2, log: () => undefined });
    expect(outcome).toMatchObject({ seeded: false });
  });
});
