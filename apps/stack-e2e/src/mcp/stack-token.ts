import type { TestStack } from '@paper/dev-stack';
import { type JWK, SignJWT, importJWK } from 'jose';
import { Client } from 'pg';

export interface StackTokenOptions {
  wallet: string;
  audience: string;
  scope?: string;
  clientId?: string;
  /** JWT header `typ` (default at+jwt, as the authorization server issues access tokens; null for none). */
  typ?: string | null;
}

/**
 * An access token signed with the running oauth-server's own key (read from oauth.signing_keys), with the
 * claims it issues: for checking what the resource servers accept without walking the consent page.
 */
export async function signStackToken(stack: TestStack, o: StackTokenOptions): Promise<string> {
  const db = new Client({ connectionString: stack.database.url });
  await db.connect();
  let jwk: JWK;
  try {
    const { rows } = await db.query<{ material: { keys: JWK[] } }>(
      `SELECT material FROM oauth.signing_keys WHERE purpose = 'jwt'`,
    );
    jwk = rows[0]!.material.keys[0]!;
  } finally {
    await db.end();
  }
  const typ = o.typ === undefined ? 'at+jwt' : o.typ;
  const header = typ === null ? { alg: 'ES256', kid: jwk.kid } : { alg: 'ES256', kid: jwk.kid, typ };
  return new SignJWT({ wallet: o.wallet, scope: o.scope ?? 'trade:read', client_id: o.clientId ?? 'stack-token' })
    .setProtectedHeader(header)
    .setIssuer(stack.baseUrl)
    .setAudience(o.audience)
    .setSubject(o.wallet)
    .setIssuedAt()
    .setExpirationTime('10m')
    .setJti(`stack-${Math.random().toString(36).slice(2)}`)
    .sign(await importJWK(jwk, 'ES256'));
}
