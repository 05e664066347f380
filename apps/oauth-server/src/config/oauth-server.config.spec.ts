import { exportJWK, generateKeyPair } from 'jose';
import { oauthServerConfigSchema } from './oauth-server.config';

describe('oauth-server configuration', () => {
  it('works locally with defaults', () => {
    const config = oauthServerConfigSchema.parse({});
    expect(config).toMatchObject({
      PORT: 3003,
      PUBLIC_BASE_URL: 'http://localhost:8080',
      PAPER_MODE: true,
      EXECUTOR_INTERNAL_URL: 'http://127.0.0.1:3004',
    });
    expect(config.OAUTH_JWKS).toBeUndefined();
    expect(config.OAUTH_COOKIE_KEYS).toEqual([]);
  });

  it('refuses the development encryption key and generated keys in production', () => {
    const result = oauthServerConfigSchema.safeParse({ NODE_ENV: 'production' });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['SESSION_KEY_ENCRYPTION_KEY', 'OAUTH_JWKS', 'OAUTH_COOKIE_KEYS']));
  });

  it('accepts production with real keys', async () => {
    const jwk = await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey);
    const config = oauthServerConfigSchema.parse({
      NODE_ENV: 'production',
      SESSION_KEY_ENCRYPTION_KEY: 'a'.repeat(64),
      OAUTH_JWKS: JSON.stringify({ keys: [jwk] }),
      OAUTH_COOKIE_KEYS: 'k1, k2',
      PUBLIC_BASE_URL: 'https://perps.example/',
    });
    expect(config.OAUTH_JWKS?.keys).toHaveLength(1);
    expect(config.OAUTH_COOKIE_KEYS).toEqual(['k1', 'k2']);
    expect(config.PUBLIC_BASE_URL).toBe('https://perps.example');
  });

  it('explains a JWKS that is not private ES256 keys', async () => {
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    for (const value of [
      'not json',
      JSON.stringify({ keys: [] }),
      JSON.stringify({ keys: [await exportJWK(publicKey)] }),
    ]) {
      const result = oauthServerConfigSchema.safeParse({ OAUTH_JWKS: value });
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]!.message).toMatch(/JSON JWKS of private ES256 keys/);
    }
  });

  it('bounds the access-token lifetime and defaults the per-IP limits', () => {
    expect(oauthServerConfigSchema.parse({})).toMatchObject({
      OAUTH_ACCESS_TTL_SECONDS: 900,
      RATE_LIMIT_REGISTER_PER_MINUTE: 20,
      RATE_LIMIT_SIGN_IN_PER_MINUTE: 30,
    });
    expect(oauthServerConfigSchema.parse({ OAUTH_ACCESS_TTL_SECONDS: '20' }).OAUTH_ACCESS_TTL_SECONDS).toBe(20);
    for (const value of ['9', '3601', 'soon'])
      expect(oauthServerConfigSchema.safeParse({ OAUTH_ACCESS_TTL_SECONDS: value }).success).toBe(false);
    expect(oauthServerConfigSchema.safeParse({ RATE_LIMIT_REGISTER_PER_MINUTE: '0' }).success).toBe(false);
  });
});
