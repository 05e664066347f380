import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

export interface MintOptions {
  wallet: string;
  scope?: string;
  sessionKey?: string;
  clientId?: string;
  /** The connection (`grant_id` claim) the token belongs to. */
  grantId?: string;
  audience?: string;
  issuer?: string;
  expiresInSeconds?: number;
  /** Sign with a key that is not in the JWKS. */
  foreignKey?: boolean;
}

export interface TestIssuer {
  jwksUrl: string;
  mint(options: MintOptions): Promise<string>;
  /** The issuer and audience the stack expects, once its base URL is known. */
  bind(baseUrl: string): void;
  stop(): Promise<void>;
}

/** A stand-in authorization server for the resource-server tests: ES256 keys and a JWKS served over HTTP. */
export async function startTestIssuer(port = 0): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const foreign = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' };
  const server: Server = http.createServer((req, res) => {
    if (req.url === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  let base = '';
  return {
    jwksUrl: `http://127.0.0.1:${bound}/jwks`,
    bind(baseUrl) {
      base = baseUrl.replace(/\/+$/, '');
    },
    async mint(o) {
      const now = Math.floor(Date.now() / 1000);
      const claims: Record<string, unknown> = {
        wallet: o.wallet.toLowerCase(),
        scope: o.scope ?? 'trade:read trade:write',
        client_id: o.clientId ?? 'test-client',
      };
      if (o.sessionKey) claims['session_key'] = o.sessionKey.toLowerCase();
      if (o.grantId) claims['grant_id'] = o.grantId;
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'test-key', typ: 'at+jwt' })
        .setIssuer(o.issuer ?? base)
        .setAudience(o.audience ?? `${base}/api/v1`)
        .setSubject(o.wallet.toLowerCase())
        .setIssuedAt(now)
        .setExpirationTime(now + (o.expiresInSeconds ?? 600))
        .setJti(`jti-${Math.random().toString(36).slice(2)}`)
        .sign(o.foreignKey ? foreign.privateKey : privateKey);
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
