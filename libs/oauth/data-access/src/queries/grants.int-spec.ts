import type { DataSource } from 'typeorm';
import { createOauthQueryDatabase, type OauthQueryDatabase } from '../testing/oauth-query-database';
import { deleteGrantAndIssued, grantsOfAccount, isGrantOfAccount, registeredClients } from './grants';

const WALLET = `0x${'1'.repeat(40)}`;
const OTHER = `0x${'2'.repeat(40)}`;

describe('grant queries (PostgreSQL)', () => {
  let database: OauthQueryDatabase;
  let db: DataSource;

  const store = (
    kind: string,
    id: string,
    payload: object,
    grantId: string | null,
    expiresAt = `now() + interval '1 day'`,
  ) =>
    db.query(
      `INSERT INTO oauth.oidc_models (kind, id, payload, grant_id, expires_at) VALUES ($1, $2, $3, $4, ${expiresAt})`,
      [kind, id, JSON.stringify(payload), grantId],
    );

  beforeAll(async () => {
    database = await createOauthQueryDatabase('oauth_grant_queries');
    db = database.dataSource;
    await store(
      'Grant',
      'g-old',
      { accountId: WALLET, clientId: 'c1', iat: 1_700_000_000, openid: { scope: 'openid trade:read' } },
      'g-old',
    );
    await store(
      'Grant',
      'g-new',
      {
        accountId: WALLET,
        clientId: 'c2',
        iat: 1_700_000_500,
        openid: { scope: 'openid' },
        resources: { 'https://mcp.example/mcp': 'trade:read trade:write' },
      },
      'g-new',
      'NULL',
    );
    await store(
      'Grant',
      'g-expired',
      { accountId: WALLET, clientId: 'c1', iat: 1_700_000_900 },
      'g-expired',
      `now() - interval '1 hour'`,
    );
    await store('Grant', 'g-other', { accountId: OTHER, clientId: 'c1', iat: 1_700_000_100 }, 'g-other');
    await store('RefreshToken', 'r1', { grantId: 'g-old' }, 'g-old');
    await store(
      'Client',
      'c1',
      { client_id: 'c1', client_name: ' Claude ', redirect_uris: ['https://claude.ai/cb'] },
      null,
    );
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('lists the live grants of an account, newest first, with their scopes once each', async () => {
    const grants = await grantsOfAccount(db, WALLET);
    expect(grants).toEqual([
      {
        grantId: 'g-new',
        clientId: 'c2',
        scopes: ['openid', 'trade:read', 'trade:write'],
        connectedAt: new Date(1_700_000_500_000),
        expiresAt: null,
      },
      {
        grantId: 'g-old',
        clientId: 'c1',
        scopes: ['openid', 'trade:read'],
        connectedAt: new Date(1_700_000_000_000),
        expiresAt: expect.any(Date),
      },
    ]);
    await expect(grantsOfAccount(db, `0x${'3'.repeat(40)}`)).resolves.toEqual([]);
  });

  it('reads registered clients by id, skipping unknown ones', async () => {
    await expect(registeredClients(db, ['c1', 'c2'])).resolves.toEqual([
      { id: 'c1', payload: { client_id: 'c1', client_name: ' Claude ', redirect_uris: ['https://claude.ai/cb'] } },
    ]);
    await expect(registeredClients(db, [])).resolves.toEqual([]);
  });

  it("tells whether a grant is the account's own", async () => {
    await expect(isGrantOfAccount(db, 'g-old', WALLET)).resolves.toBe(true);
    await expect(isGrantOfAccount(db, 'g-other', WALLET)).resolves.toBe(false);
    await expect(isGrantOfAccount(db, 'r1', WALLET)).resolves.toBe(false);
  });

  it('deletes a grant with everything issued from it, and nothing else', async () => {
    await expect(deleteGrantAndIssued(db, 'g-old')).resolves.toBe(2);
    const left = (await db.query(`SELECT id FROM oauth.oidc_models ORDER BY id`)) as { id: string }[];
    expect(left.map((r) => r.id)).toEqual(['c1', 'g-expired', 'g-new', 'g-other']);
  });
});
