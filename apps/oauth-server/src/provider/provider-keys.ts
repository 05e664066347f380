import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
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
  const jwks = config.OAUTH_JWKS ? { keys: await Promise.all(config.OAUTH_JWKS.keys.map((k) => withKid(k as JWK))) } : await devJwks(dataSource);
  const cookieKeys = config.OAUTH_COOKIE_KEYS.length > 0 ? config.OAUTH_COOKIE_KEYS : await devCookieKeys(dataSource);
  return { jwks, cookieKeys };
}

async function withKid(jwk: JWK): Promise<JWK> {
  return { ...jwk, alg: 'ES256', use: 'sig', kid: jwk.kid ?? (await calculateJwkThumbprint(jwk)) };
}

async function devJwks(dataSource: DataSource): Promise<{ keys: JWK[] }> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const candidate = await withKid(await exportJWK(privateKey));
  const material = await storeOnce(dataSource, DEV_JWT_KEY_ID, 'jwt', { keys: [candidate] });
  return material as { keys: JWK[] };
}

async function devCookieKeys(dataSource: DataSource): Promise<string[]> {
  const material = await storeOnce(dataSource, DEV_COOKIE_KEY_ID, 'cookie', { keys: [randomBytes(32).toString('base64url')] });
  return (material as { keys: string[] }).keys;
}

/** Inserts the candidate unless another replica did first; returns whichever is stored. */
async function storeOnce(dataSource: DataSource, id: string, purpose: 'jwt' | 'cookie', candidate: object): Promise<unknown> {
  await dataSource.query(
    `INSERT INTO oauth.signing_keys (id, purpose, material) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
    [id, purpose, JSON.stringify(candidate)],
  );
  const rows = (await dataSource.query(`SELECT material FROM oauth.signing_keys WHERE id = $1`, [id])) as { material: unknown }[];
  return rows[0]!.material;
}
