import { exportJWK, generateKeyPair } from 'jose';
import type { DataSource } from 'typeorm';
import { oauthServerConfigSchema } from '../config/oauth-server.config';
import { loadProviderKeys } from './provider-keys';
import { createOauthTestDatabase, type OauthTestDatabase } from '../testing/oauth-test-database';

const ADMIN_URL = process.env['TEST_DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('authorization server keys (PostgreSQL)', () => {
  let database: OauthTestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createOauthTestDatabase(ADMIN_URL, 'oauth_keys');
    dataSource = database.dataSource;
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('generates one ES256 key and one cookie key in development, shared by every replica', async () => {
    const config = oauthServerConfigSchema.parse({});
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => loadProviderKeys(config, dataSource)));
    expect(a!.jwks.keys).toHaveLength(1);
    expect(a!.jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', d: expect.any(String) });
    expect(b!.jwks).toEqual(a!.jwks);
    expect(c!.cookieKeys).toEqual(a!.cookieKeys);
    const rows = (await dataSource.query(`SELECT purpose FROM oauth.signing_keys ORDER BY purpose`)) as {
      purpose: string;
    }[];
    expect(rows.map((r) => r.purpose)).toEqual(['cookie', 'jwt']);
  });

  it('uses configured keys as given (first signs), with a kid derived when missing', async () => {
    const first = await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey);
    const second = {
      ...(await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey)),
      kid: 'old-key',
    };
    const config = oauthServerConfigSchema.parse({
      OAUTH_JWKS: JSON.stringify({ keys: [first, second] }),
      OAUTH_COOKIE_KEYS: 'one,two',
    });
    const keys = await loadProviderKeys(config, dataSource);
    expect(keys.jwks.keys.map((k) => k.x)).toEqual([first.x, second.x]);
    expect(keys.jwks.keys[0]!.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keys.jwks.keys[1]!.kid).toBe('old-key');
    expect(keys.cookieKeys).toEqual(['one', 'two']);
  });
});
