import type { DataSource } from 'typeorm';
import { createOauthQueryDatabase, type OauthQueryDatabase } from '../testing/oauth-query-database';
import { deleteExpiredRows } from './expired-rows';
import { recordScopeStepUp, SCOPE_STEP_UP_SECONDS, scopeStepUpSince } from './scope-step-ups';

const WALLET = `0x${'ab'.repeat(20)}`;

describe('scope step-up queries (PostgreSQL)', () => {
  let database: OauthQueryDatabase;
  let db: DataSource;

  beforeAll(async () => {
    database = await createOauthQueryDatabase('oauth_scope_step_ups');
    db = database.dataSource;
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('finds a request of the client on the wallet made after a moment, whatever the address case; one row per client and wallet', async () => {
    const before = new Date(Date.now() - 5_000);
    await recordScopeStepUp(db, {
      clientId: 'c1',
      accountId: WALLET.toUpperCase().replace('0X', '0x'),
      scope: 'trade:read',
    });
    await recordScopeStepUp(db, { clientId: 'c1', accountId: WALLET, scope: 'trade:read trade:write' });
    expect(await scopeStepUpSince(db, 'c1', WALLET, before)).toBe('trade:read trade:write');
    expect(await scopeStepUpSince(db, 'c1', WALLET.toUpperCase().replace('0X', '0x'), before)).toBe(
      'trade:read trade:write',
    );
    expect(await scopeStepUpSince(db, 'c1', WALLET, new Date(Date.now() + 5_000))).toBeUndefined();
    expect(await scopeStepUpSince(db, 'c2', WALLET, before)).toBeUndefined();
    expect(await db.query(`SELECT count(*)::int AS n FROM oauth.scope_step_ups`)).toEqual([{ n: 1 }]);
  });

  it(`holds a request for ${SCOPE_STEP_UP_SECONDS} s, then it no longer counts and the cleanup removes it`, async () => {
    await recordScopeStepUp(db, { clientId: 'c3', accountId: WALLET, scope: 'trade:write' });
    const [row] = (await db.query(
      `SELECT extract(epoch FROM expires_at - requested_at)::int AS seconds FROM oauth.scope_step_ups WHERE client_id = 'c3'`,
    )) as { seconds: number }[];
    expect(row!.seconds).toBe(SCOPE_STEP_UP_SECONDS);
    await db.query(
      `UPDATE oauth.scope_step_ups SET requested_at = now() - interval '3 minutes', expires_at = now() - interval '2 minutes' WHERE client_id = 'c3'`,
    );
    expect(await scopeStepUpSince(db, 'c3', WALLET, new Date(0))).toBeUndefined();
    await deleteExpiredRows(db);
    expect(await db.query(`SELECT client_id FROM oauth.scope_step_ups ORDER BY client_id`)).toEqual([
      { client_id: 'c1' },
    ]);
  });
});
