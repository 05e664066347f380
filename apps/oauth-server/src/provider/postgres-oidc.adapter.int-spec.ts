import { deleteExpiredRows } from '@paper/oauth-data';
import type { DataSource } from 'typeorm';
import { PostgresOidcAdapter } from './postgres-oidc.adapter';
import { createOauthTestDatabase, type OauthTestDatabase } from '../testing/oauth-test-database';

const ADMIN_URL = process.env['TEST_DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('PostgresOidcAdapter (PostgreSQL)', () => {
  let database: OauthTestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createOauthTestDatabase(ADMIN_URL, 'oauth_adapter');
    dataSource = database.dataSource;
  });

  afterAll(async () => {
    await database?.drop();
  });

  /** Grants whose session keys were revoked, in order (what the app does through SessionKeysService). */
  let revokedKeysOf: string[] = [];
  let failRevocation = false;
  const adapter = (kind: string) =>
    new PostgresOidcAdapter(dataSource, kind, async (grantId) => {
      if (failRevocation) throw new Error('queue unavailable');
      revokedKeysOf.push(grantId);
    });
  const rowsOf = async (grantId: string) =>
    (
      (await dataSource.query(`SELECT kind, id FROM oauth.oidc_models WHERE grant_id = $1 ORDER BY kind, id`, [
        grantId,
      ])) as { kind: string; id: string }[]
    ).map((r) => `${r.kind}:${r.id}`);
  const expiryOf = async (kind: string, id: string) =>
    (
      (await dataSource.query(`SELECT expires_at FROM oauth.oidc_models WHERE kind = $1 AND id = $2`, [kind, id])) as {
        expires_at: Date | null;
      }[]
    )[0]?.expires_at;

  beforeEach(() => {
    revokedKeysOf = [];
    failRevocation = false;
  });

  it('stores, finds, updates and destroys a model by kind and id', async () => {
    const codes = adapter('AuthorizationCode');
    const sessions = adapter('Session');
    await codes.upsert('c1', { jti: 'c1', kind: 'AuthorizationCode', grantId: 'g1', accountId: '0xabc' }, 60);
    expect(await codes.find('c1')).toMatchObject({ jti: 'c1', grantId: 'g1', accountId: '0xabc' });
    expect(await sessions.find('c1')).toBeUndefined();
    await codes.upsert('c1', { jti: 'c1', kind: 'AuthorizationCode', grantId: 'g1', accountId: '0xdef' }, 60);
    expect(await codes.find('c1')).toMatchObject({ accountId: '0xdef' });
    await codes.destroy('c1');
    expect(await codes.find('c1')).toBeUndefined();
  });

  it('marks a consumed model with the time it was consumed', async () => {
    const codes = adapter('AuthorizationCode');
    await codes.upsert('c2', { jti: 'c2', kind: 'AuthorizationCode' }, 60);
    expect((await codes.find('c2'))?.consumed).toBeUndefined();
    await codes.consume('c2');
    const consumed = (await codes.find('c2'))?.consumed as number;
    expect(Math.abs(consumed - Date.now() / 1000)).toBeLessThan(60);
  });

  it('reads an expired model as absent, and the sweep deletes it', async () => {
    const interactions = adapter('Interaction');
    await interactions.upsert('i1', { jti: 'i1', kind: 'Interaction', uid: 'u1' }, 3600);
    await interactions.upsert('i2', { jti: 'i2', kind: 'Interaction', uid: 'u2' }, 3600);
    expect(await interactions.findByUid('u1')).toMatchObject({ jti: 'i1' });
    await dataSource.query(
      `UPDATE oauth.oidc_models SET expires_at = now() - interval '1 hour' WHERE kind = 'Interaction' AND id = 'i1'`,
    );
    expect(await interactions.find('i1')).toBeUndefined();
    expect(await interactions.findByUid('u1')).toBeUndefined();
    expect(await deleteExpiredRows(dataSource)).toBeGreaterThanOrEqual(1);
    const left = (await dataSource.query(
      `SELECT id FROM oauth.oidc_models WHERE kind = 'Interaction' ORDER BY id`,
    )) as { id: string }[];
    expect(left.map((r) => r.id)).toEqual(['i2']);
  });

  it('sweeps abandoned consent requests (with their pending keys) and lapsed sign-ins, keeping live ones', async () => {
    await dataSource.query(
      `INSERT INTO oauth.consent_requests (uid, encrypted_private_key, expires_at) VALUES ('old', 'v1.sealed', now() - interval '2 hours'), ('live', 'v1.sealed', now() + interval '1 hour')`,
    );
    await dataSource.query(
      `INSERT INTO oauth.wallet_sessions (id, wallet, expires_at) VALUES (repeat('a', 64), '0x${'1'.repeat(40)}', now() - interval '1 day'), (repeat('b', 64), '0x${'1'.repeat(40)}', now() + interval '1 hour')`,
    );
    expect(await deleteExpiredRows(dataSource)).toBe(2);
    expect(
      ((await dataSource.query(`SELECT uid FROM oauth.consent_requests`)) as { uid: string }[]).map((r) => r.uid),
    ).toEqual(['live']);
    expect(
      ((await dataSource.query(`SELECT count(*)::int AS n FROM oauth.wallet_sessions`)) as { n: number }[])[0]!.n,
    ).toBe(1);
  });

  it('finds device-flow models by user code', async () => {
    const devices = adapter('DeviceCode');
    await devices.upsert('d1', { jti: 'd1', kind: 'DeviceCode', userCode: 'ABCD-EFGH' }, 600);
    expect(await devices.findByUserCode('ABCD-EFGH')).toMatchObject({ jti: 'd1' });
    expect(await devices.findByUserCode('ZZZZ-ZZZZ')).toBeUndefined();
  });

  it('revokes every token of one kind belonging to a grant, and only those', async () => {
    const refresh = adapter('RefreshToken');
    const codes = adapter('AuthorizationCode');
    await refresh.upsert('r1', { jti: 'r1', kind: 'RefreshToken', grantId: 'g9' }, 600);
    await refresh.upsert('r2', { jti: 'r2', kind: 'RefreshToken', grantId: 'g9' }, 600);
    await refresh.upsert('r3', { jti: 'r3', kind: 'RefreshToken', grantId: 'other' }, 600);
    await codes.upsert('c9', { jti: 'c9', kind: 'AuthorizationCode', grantId: 'g9' }, 600);
    await refresh.revokeByGrantId('g9');
    expect(await refresh.find('r1')).toBeUndefined();
    expect(await refresh.find('r2')).toBeUndefined();
    expect(await refresh.find('r3')).toMatchObject({ jti: 'r3' });
    expect(await codes.find('c9')).toMatchObject({ jti: 'c9' });
  });

  it('keeps a grant findable under its own id as grant id (so a connection can be removed with all it issued)', async () => {
    const grants = adapter('Grant');
    await grants.upsert('g5', { jti: 'g5', kind: 'Grant', accountId: '0xabc' }, 600);
    const rows = (await dataSource.query(
      `SELECT grant_id FROM oauth.oidc_models WHERE kind = 'Grant' AND id = 'g5'`,
    )) as { grant_id: string }[];
    expect(rows[0]?.grant_id).toBe('g5');
  });

  it('consumes a code or refresh token once: of two simultaneous uses one fails as a reuse and revokes the whole grant', async () => {
    for (const kind of ['AuthorizationCode', 'RefreshToken']) {
      const grantId = `race-${kind}`;
      revokedKeysOf = [];
      const tokens = adapter(kind);
      await adapter('Grant').upsert(grantId, { jti: grantId, kind: 'Grant', accountId: '0xabc', clientId: 'c' }, 600);
      await tokens.upsert('t1', { jti: 't1', kind, grantId }, 600);
      await adapter('RefreshToken').upsert(
        `${kind}-sibling`,
        { jti: `${kind}-sibling`, kind: 'RefreshToken', grantId },
        600,
      );

      const outcomes = await Promise.allSettled([tokens.consume('t1'), tokens.consume('t1')]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(failed?.reason).toMatchObject({ error: 'invalid_grant', status: 400 });
      expect(revokedKeysOf).toEqual([grantId]);
      expect(await rowsOf(grantId)).toEqual([]);
    }
  });

  it('treats consuming an already consumed code as a reuse (the grant goes, with its session keys)', async () => {
    const codes = adapter('AuthorizationCode');
    await adapter('Grant').upsert('g-seq', { jti: 'g-seq', kind: 'Grant', accountId: '0xabc', clientId: 'c' }, 600);
    await codes.upsert('c-seq', { jti: 'c-seq', kind: 'AuthorizationCode', grantId: 'g-seq' }, 60);
    await codes.consume('c-seq');
    await expect(codes.consume('c-seq')).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(revokedKeysOf).toEqual(['g-seq']);
    expect(await rowsOf('g-seq')).toEqual([]);
  });

  it('revokes the session keys before removing a grant, and keeps the grant when that fails', async () => {
    const grants = adapter('Grant');
    await grants.upsert('g-keys', { jti: 'g-keys', kind: 'Grant', accountId: '0xabc', clientId: 'c' }, 600);
    failRevocation = true;
    await expect(grants.destroy('g-keys')).rejects.toThrow('queue unavailable');
    expect(await grants.find('g-keys')).toMatchObject({ jti: 'g-keys' });
    failRevocation = false;
    await grants.destroy('g-keys');
    expect(revokedKeysOf).toEqual(['g-keys']);
    expect(await grants.find('g-keys')).toBeUndefined();
  });

  it('expires a registered client after 30 days unless a connection is approved for it; the sweep removes it', async () => {
    const clients = adapter('Client');
    await clients.upsert('unused', { client_id: 'unused' });
    await clients.upsert('used', { client_id: 'used' });
    const days = ((await expiryOf('Client', 'unused'))!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    await adapter('Grant').upsert(
      'g-used',
      { jti: 'g-used', kind: 'Grant', accountId: '0xabc', clientId: 'used' },
      600,
    );
    expect(await expiryOf('Client', 'used')).toBeNull();
    await clients.upsert('used', { client_id: 'used', client_name: 'renamed' });
    expect(await expiryOf('Client', 'used')).toBeNull();

    await dataSource.query(
      `UPDATE oauth.oidc_models SET expires_at = now() - interval '1 hour' WHERE kind = 'Client' AND id = 'unused'`,
    );
    expect(await clients.find('unused')).toBeUndefined();
    await deleteExpiredRows(dataSource);
    expect(await expiryOf('Client', 'unused')).toBeUndefined();
    expect(await clients.find('used')).toMatchObject({ client_name: 'renamed' });
  });
});
