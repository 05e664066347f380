import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { isDependencyOutage } from '../errors/dependency-outage';
import { guardPostgresDataSource } from './pg-connections';

const ADMIN_URL = process.env['TEST_DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('guarded PostgreSQL connections', () => {
  let dataSource: DataSource;
  let admin: Client;
  const reported: Error[] = [];

  beforeAll(async () => {
    dataSource = new DataSource({
      type: 'postgres',
      url: ADMIN_URL,
      extra: { max: 2, application_name: 'guarded-pg-test' },
    });
    guardPostgresDataSource(dataSource, (error) => reported.push(error));
    await dataSource.initialize();
    admin = new Client({ connectionString: ADMIN_URL });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await dataSource?.destroy();
  });

  it('survives pg_terminate_backend of a client held between queries, and replaces it', async () => {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    const [{ pid }] = (await runner.query('SELECT pg_backend_pid() AS pid')) as [{ pid: number }];
    // The held client gets the server's 57P01 message, then the end of its socket: two 'error' events.
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await expect(runner.query('SELECT 1')).rejects.toThrow();
    await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
    // 57P01 from the server, or the socket's end or reset first: every one is reported as an outage.
    expect(reported.length).toBeGreaterThan(0);
    expect(reported.filter((e) => !isDependencyOutage(e))).toEqual([]);
    const [{ alive }] = (await dataSource.query('SELECT 1 AS alive')) as [{ alive: number }];
    expect(alive).toBe(1);
  });

  it('reports the termination of an idle pooled client instead of throwing', async () => {
    await dataSource.query('SELECT 1');
    const before = reported.length;
    const ended = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'guarded-pg-test'`,
    );
    expect(ended.rowCount).toBeGreaterThan(0);
    const deadline = Date.now() + 5000;
    while (reported.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(reported.length).toBeGreaterThan(before);
    const [{ alive }] = (await dataSource.query('SELECT 1 AS alive')) as [{ alive: number }];
    expect(alive).toBe(1);
  });
});
