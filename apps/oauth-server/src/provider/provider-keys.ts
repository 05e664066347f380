import { signingKeyStoredOnce } from '@paper/oauth-data';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { OauthServerConfig } from '../config/oauth-server.config';

export interface ProviderKeys {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
}

const DEV_JWT_KEY_ID = 'dev-jwt-es256';
const DEV_COOKIE_KEY_ID = 'dev-cookie';

/**
 * The signing keys (ES256) and cookie keys of the authorization server. Configured in production
 * (OAUTH_JWKS, OAUTH_COOKIE_KEYS); in development generated once at first start and kept in
 * oauth.signing_keys, so every replica signs and verifies with the same keys. Keys are never committed.
 */
export async function loadProviderKeys(config: OauthServerConfig, dataSource: DataSource): Promise<ProviderKeys> {
  const jwks = config.OAUTH_JWKS
    ? { keys: await Promise.all(config.OAUTH_JWKS.keys.map((k) => withKid(k as JWK))) }
    : await devJwks(dataSource);
  const cookieKeys = config.OAUTH_COOKIE_KEYS.length > 0 ? config.OAUTH_COOKIE_KEYS : await devCookieKeys(dataSource);
  return { jwks, cookieKeys };
}

async function withKid(jwk: JWK): Promise<JWK> {
  return { ...jwk, alg: 'ES256', use: 'sig', kid: jwk.kid ?? (await calculateJwkThumbprint(jwk)) };
}

async function devJwks(dataSource: DataSource): Promise<{ keys: JWK[] }> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const candidate = await withKid(await exportJWK(privateKey));
  return signingKeyStoredOnce(dataSource, DEV_JWT_KEY_ID, 'jwt', { keys: [candidate] });
}

async function devCookieKeys(dataSource: DataSource): Promise<string[]> {
  return (
    await signingKeyStoredOnce(dataSource, DEV_COOKIE_KEY_ID, 'cookie', {
      keys: [randomBytes(32).toString('base64url')],
    })
  ).keys;
}
