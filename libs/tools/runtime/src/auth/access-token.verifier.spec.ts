import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolErrorCode } from '@paper/contracts';
import { type JWK, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { ToolError } from '../errors/tool.error';
import type { ToolsRuntimeOptions } from '../runtime-options';
import { AccessTokenVerifier } from './access-token.verifier';
import type { ConnectionLiveness } from './connection-liveness';
import { isNetworkFailure } from './jwks-fetch';

const ISSUER = 'https://perps.example';
const AUDIENCES = [`${ISSUER}/mcp`, `${ISSUER}/api/v1`];
const WALLET = `0x${'ab'.repeat(20)}`;

/** A JWKS endpoint on a loopback port; `status` decides what it answers. */
async function startJwks(jwk: JWK): Promise<{ url: string; status: { code: number }; server: Server }> {
  const status = { code: 200 };
  const server = http.createServer((_req, res) => {
    res.writeHead(status.code, { 'content-type': 'application/json' });
    res.end(status.code === 200 ? JSON.stringify({ keys: [jwk] }) : '{"error":"down"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`, status, server };
}

/** Grants the fake connection store holds (a revoked connection's grant is deleted). */
const liveGrants = new Set<string>(['grant-live']);
const connections = { isLive: async (grantId: string) => liveGrants.has(grantId) } as unknown as ConnectionLiveness;

function verifierFor(jwksUrl: string): AccessTokenVerifier {
  return new AccessTokenVerifier(
    {
      oauthJwksUrl: jwksUrl,
      tokenIssuer: ISSUER,
      tokenAudiences: AUDIENCES,
    } as ToolsRuntimeOptions,
    connections,
  );
}

async function failure(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return error;
}

describe('AccessTokenVerifier', () => {
  let key: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  let jwks: Awaited<ReturnType<typeof startJwks>>;

  const mint = (header: { typ?: string } = { typ: 'at+jwt' }, audience = AUDIENCES[0]!, claims = {}) =>
    new SignJWT({ wallet: WALLET, scope: 'trade:read', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', ...header })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setSubject(WALLET)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    key = pair.privateKey;
    jwks = await startJwks({ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' });
  });

  afterAll(async () => {
    await new Promise((resolve) => jwks.server.close(resolve));
  });

  beforeEach(() => {
    jwks.status.code = 200;
  });

  it('accepts an access token (typ at+jwt, also written application/at+jwt) for an accepted audience', async () => {
    const verifier = verifierFor(jwks.url);
    for (const typ of ['at+jwt', 'application/at+jwt']) {
      await expect(verifier.verify(await mint({ typ }))).resolves.toMatchObject({
        wallet: WALLET,
        scopes: ['trade:read'],
      });
    }
    await expect(verifier.verify(await mint(undefined, AUDIENCES[1]))).resolves.toMatchObject({ wallet: WALLET });
  });

  it.each([
    ['without typ', {}],
    ['typed JWT', { typ: 'JWT' }],
    ['typed as an ID token', { typ: 'id_token+jwt' }],
  ])('refuses a signed token %s with 401 invalid_token: it is not an access token', async (_label, header) => {
    const error = await failure(verifierFor(jwks.url).verify(await mint(header)));
    expect({ status: error.status, code: error.code }).toEqual({ status: 401, code: ToolErrorCode.InvalidToken });
    expect(error.message).toContain('typ must be at+jwt');
    expect(error.headers['WWW-Authenticate']).toContain('error="invalid_token"');
  });

  it('refuses the token of a revoked connection (its grant is gone) with 401 invalid_token', async () => {
    const verifier = verifierFor(jwks.url);
    await expect(verifier.verify(await mint(undefined, undefined, { grant_id: 'grant-live' }))).resolves.toMatchObject({
      wallet: WALLET,
      grantId: 'grant-live',
    });
    const error = await failure(verifier.verify(await mint(undefined, undefined, { grant_id: 'grant-revoked' })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 401, code: ToolErrorCode.InvalidToken });
    expect(error.message).toContain('the connection was revoked');
    expect(error.headers['WWW-Authenticate']).toContain('error="invalid_token"');
  });

  it('refuses a token for a foreign audience with 401', async () => {
    const error = await failure(verifierFor(jwks.url).verify(await mint(undefined, 'https://elsewhere.example/mcp')));
    expect(error.code).toBe(ToolErrorCode.InvalidToken);
    expect(error.message).toContain('"aud"');
  });

  it.each(['not-a-jwt', 'a.b.c', 'eyJhbGciOiJFUzI1NiJ9.e30.', `${'x'.repeat(40)}.${'y'.repeat(40)}.${'z'.repeat(40)}`])(
    'answers malformed token %s with 401, never an error of its own',
    async (token) => {
      const error = await failure(verifierFor(jwks.url).verify(token));
      expect(error.status).toBe(401);
    },
  );

  it('answers 502 auth_unavailable with Retry-After when the JWKS answers with an error', async () => {
    jwks.status.code = 503;
    const error = await failure(verifierFor(jwks.url).verify(await mint()));
    expect({ status: error.status, code: error.code }).toEqual({ status: 502, code: ToolErrorCode.AuthUnavailable });
    expect(error.message).toMatch(/retry/i);
    expect(error.headers['Retry-After']).toBe('2');
  });

  it('answers 502 auth_unavailable when nothing listens at the JWKS URL', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(verifierFor(`http://127.0.0.1:${port}/jwks`).verify(await mint()));
    expect({ status: error.status, code: error.code }).toEqual({ status: 502, code: ToolErrorCode.AuthUnavailable });
  });
});

describe('isNetworkFailure', () => {
  it('is true for a fetch that found nobody listening', async () => {
    const error = await fetch('http://127.0.0.1:1/').catch((e: unknown) => e);
    expect(isNetworkFailure(error)).toBe(true);
  });

  it('is false for other TypeErrors (bugs) and other errors', () => {
    expect(isNetworkFailure(new TypeError("Cannot read properties of undefined (reading 'keys')"))).toBe(false);
    expect(isNetworkFailure(new TypeError('fetch failed'))).toBe(false);
    expect(isNetworkFailure(new Error('fetch failed'))).toBe(false);
    expect(isNetworkFailure(undefined)).toBe(false);
  });
});
