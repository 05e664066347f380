import * as oidc from 'openid-client';
import { DEFAULT_TEST_LIMITS } from './consent-driver';
import { connectWithConsent, finishConsent, startConsent } from './connect-flow';
import {
  authorizationRequest,
  eventually,
  exchangeCode,
  rawTokenRequest,
  registerPublicClient,
} from './oauth-test-client';
import { useOAuthSuite } from './oauth-suite';

/** The documented defaults of RATE_LIMIT_REQUESTS_BURST, RATE_LIMIT_REGISTER_PER_MINUTE and RATE_LIMIT_SIGN_IN_PER_MINUTE. */
const REQUESTS_BURST = 60;
const REGISTER_PER_MINUTE = 20;
const SIGN_IN_PER_MINUTE = 30;
/** Token requests fired at once with the same code or refresh token. */
const SIMULTANEOUS = 4;

/** What the authorization endpoint answers, without following redirects. */
async function authorize(url: URL): Promise<{ status: number; location: URL | null; body: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location, url) : null, body: await res.text() };
}

describe('OAuth: requests that must not yield a token or a trade', () => {
  const suite = useOAuthSuite();

  const client = () => registerPublicClient(suite.stack.baseUrl, [suite.callback.redirectUri]);

  it('refuses an authorization request without PKCE, or with the plain method', async () => {
    const registered = await client();
    const withoutPkce = oidc.buildAuthorizationUrl(registered.config, {
      redirect_uri: suite.callback.redirectUri,
      scope: 'trade:read',
      state: 's1',
    });
    const missing = await authorize(withoutPkce);
    expect(missing.status).toBe(303);
    expect(missing.location?.searchParams.get('error')).toBe('invalid_request');
    expect(missing.location?.searchParams.get('error_description')).toMatch(/PKCE/i);
    expect(missing.location?.searchParams.get('code')).toBeNull();

    const plain = await authorizationRequest(registered, suite.callback.redirectUri, 'trade:read', {
      code_challenge_method: 'plain',
    });
    const refused = await authorize(plain.url);
    expect(refused.location?.searchParams.get('error')).toBe('invalid_request');
    expect(refused.location?.searchParams.get('code')).toBeNull();
  });

  it('never redirects to an unregistered URI (no loopback port leniency for other hosts or paths)', async () => {
    const registered = await client();
    for (const redirect of [
      'https://evil.example/callback',
      `http://127.0.0.1:${suite.callback.port}/other`,
      `http://localhost:${suite.callback.port}/callback`,
    ]) {
      const request = await authorizationRequest(registered, redirect);
      const answer = await authorize(request.url);
      expect(answer.status).toBe(400);
      expect(answer.location).toBeNull();
      expect(answer.body).toContain('never registered');
    }
  });

  it('refuses a resource (audience) this server does not issue tokens for', async () => {
    const registered = await client();
    const request = await authorizationRequest(registered, suite.callback.redirectUri, 'trade:read', {
      resource: 'https://other.example/api',
    });
    const answer = await authorize(request.url);
    expect(answer.location?.searchParams.get('error')).toBe('invalid_target');
    expect(answer.location?.searchParams.get('code')).toBeNull();
  });

  it('refuses a wrong or missing code verifier and a wrong redirect URI; a reused code revokes the grant', async () => {
    const flow = await connectWithConsent(suite.env);
    const code = flow.callbackUrl.searchParams.get('code')!;
    const base = {
      grant_type: 'authorization_code',
      client_id: flow.client.clientId,
      code,
      redirect_uri: flow.request.redirectUri,
    };

    const wrong = await rawTokenRequest(suite.stack.baseUrl, { ...base, code_verifier: oidc.randomPKCECodeVerifier() });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(wrong.body['access_token']).toBeUndefined();
    const missing = await rawTokenRequest(suite.stack.baseUrl, base);
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(missing.body['access_token']).toBeUndefined();
    const otherRedirect = await rawTokenRequest(suite.stack.baseUrl, {
      ...base,
      code_verifier: flow.request.verifier,
      redirect_uri: 'http://127.0.0.1:1/elsewhere',
    });
    expect(otherRedirect).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const tokens = await exchangeCode(flow.client, flow.callbackUrl, flow.request);
    expect(tokens.access_token).toEqual(expect.any(String));
    const reused = await rawTokenRequest(suite.stack.baseUrl, { ...base, code_verifier: flow.request.verifier });
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // Replaying the code is treated as theft: the grant and its refresh token are gone.
    await expect(oidc.refreshTokenGrant(flow.client.config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await flow.context.close();
  });

  it('rejects an approval signed over other limits than the page shows: no key, no callback until signed honestly', async () => {
    const walletOptions = { tamperApproval: true };
    const started = await startConsent(suite.env, { wallet: walletOptions });
    await started.driver.setLimits(DEFAULT_TEST_LIMITS);
    const received = suite.callback.received.length;
    await started.driver.approve();
    expect(await started.driver.errorText()).toMatch(/does not match your wallet and the limits shown/);
    expect(suite.callback.received.length).toBe(received);
    const wallet = started.wallet!.address;
    expect((await suite.db.query('SELECT 1 FROM exchange.session_keys WHERE wallet = $1', [wallet])).rowCount).toBe(0);
    expect((await suite.db.query('SELECT 1 FROM oauth.session_key_secrets WHERE wallet = $1', [wallet])).rowCount).toBe(
      0,
    );
    expect(
      (
        await suite.db.query(`SELECT 1 FROM oauth.oidc_models WHERE kind = 'Grant' AND payload->>'accountId' = $1`, [
          wallet,
        ])
      ).rowCount,
    ).toBe(0);

    // The owner can simply try again: an honest signature goes through.
    walletOptions.tamperApproval = false;
    const callbackUrl = await finishConsent(suite.env, started);
    expect(callbackUrl.searchParams.get('code')).toEqual(expect.any(String));
    expect((await suite.db.query('SELECT 1 FROM exchange.session_keys WHERE wallet = $1', [wallet])).rowCount).toBe(1);
    await started.context.close();
  });

  it('issues at most one token for a code presented several times at the same moment, and revokes the grant and its trading key', async () => {
    const flow = await connectWithConsent(suite.env);
    const code = flow.callbackUrl.searchParams.get('code')!;
    const params = {
      grant_type: 'authorization_code',
      client_id: flow.client.clientId,
      code,
      redirect_uri: flow.request.redirectUri,
      code_verifier: flow.request.verifier,
    };
    const answers = await Promise.all(
      Array.from({ length: SIMULTANEOUS }, () => rawTokenRequest(suite.stack.baseUrl, params)),
    );
    await flow.context.close();
    await expectOneWinnerAndRevokedGrant(answers, flow.client.clientId, flow.wallet!.address);
  });

  it('issues at most one token for a refresh token presented several times at the same moment, and revokes the grant and its trading key', async () => {
    const flow = await connectWithConsent(suite.env);
    const tokens = await exchangeCode(flow.client, flow.callbackUrl, flow.request);
    await flow.context.close();
    const params = {
      grant_type: 'refresh_token',
      client_id: flow.client.clientId,
      refresh_token: tokens.refresh_token!,
    };
    const answers = await Promise.all(
      Array.from({ length: SIMULTANEOUS }, () => rawTokenRequest(suite.stack.baseUrl, params)),
    );
    await expectOneWinnerAndRevokedGrant(answers, flow.client.clientId, flow.wallet!.address);
  });

  /** At most one answer carries tokens, the other is a reuse; the grant is gone with everything it issued, its key revoked. */
  async function expectOneWinnerAndRevokedGrant(
    answers: { status: number; body: Record<string, unknown> }[],
    clientId: string,
    wallet: string,
  ): Promise<void> {
    const issued = answers.filter((a) => a.status === 200);
    expect(issued.length).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.status === 400 && a.body['error'] === 'invalid_grant').length).toBe(
      answers.length - issued.length,
    );
    expect(answers.length - issued.length).toBeGreaterThanOrEqual(1);
    expect(
      await suite.query(`SELECT id FROM oauth.oidc_models WHERE kind = 'Grant' AND payload->>'clientId' = $1`, [
        clientId,
      ]),
    ).toEqual([]);
    const winner = issued[0]?.body['refresh_token'];
    if (typeof winner === 'string') {
      const refreshed = await rawTokenRequest(suite.stack.baseUrl, {
        grant_type: 'refresh_token',
        client_id: clientId,
        refresh_token: winner,
      });
      expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
    const [key] = await suite.query<{ revoked_at: Date | null }>(
      'SELECT revoked_at FROM oauth.session_key_secrets WHERE wallet = $1',
      [wallet],
    );
    expect(key!.revoked_at).toBeInstanceOf(Date);
    const onExchange = await eventually(
      async () =>
        (
          await suite.query<{ revoked_at: Date | null }>(
            'SELECT revoked_at FROM exchange.session_keys WHERE wallet = $1',
            [wallet],
          )
        )[0]?.revoked_at,
      'the exchange to revoke the session key',
    );
    expect(onExchange).toBeInstanceOf(Date);
  }

  it('refuses registrations with text the database cannot store (a NUL in a redirect URI: invalid_redirect_uri), or plain-http redirects to another host (400, nothing stored)', async () => {
    const register = (metadata: Record<string, unknown>, ip: string) =>
      fetch(`${suite.stack.appUrls['oauth-server']}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ token_endpoint_auth_method: 'none', ...metadata }),
      });
    const [{ n: before }] = await suite.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM oauth.oidc_models WHERE kind = 'Client'`,
    );
    for (const [metadata, error, field] of [
      [
        { client_name: 'Agent\u0000', redirect_uris: ['https://agent.example/cb'] },
        'invalid_client_metadata',
        '"client_name"',
      ],
      [
        { client_name: 'Agent', redirect_uris: ['https://agent.example/cb\u0000'] },
        'invalid_redirect_uri',
        '"redirect_uris[0]"',
      ],
      [{ client_name: 'Agent', redirect_uris: ['http://agent.example/cb'] }, 'invalid_redirect_uri', 'plain http'],
      [{ client_name: 'Agent', redirect_uris: ['http://10.0.0.5/cb'] }, 'invalid_redirect_uri', 'plain http'],
      [{ client_name: 'Agent', redirect_uris: ['javascript:alert(1)//'] }, 'invalid_redirect_uri', ''],
    ] as const) {
      const res = await register(metadata, '198.51.100.20');
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error, error_description: expect.stringContaining(field) });
    }
    const [{ n: after }] = await suite.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM oauth.oidc_models WHERE kind = 'Client'`,
    );
    expect(after).toBe(before);
    // Loopback over http (native apps, RFC 8252) and https stay allowed.
    for (const uri of [
      'http://127.0.0.1:33418/cb',
      'http://localhost:6274/oauth/callback',
      'http://[::1]/cb',
      'https://claude.ai/api/mcp/auth_callback',
    ]) {
      expect((await register({ client_name: 'Agent', redirect_uris: [uri] }, '198.51.100.21')).status).toBe(201);
    }
    // A NUL in a token request's code or refresh token is just an unknown one.
    const token = await fetch(`${suite.stack.baseUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&refresh_token=a%00b&client_id=nobody',
    });
    expect(token.status).toBeLessThan(500);
    expect(await token.json()).toMatchObject({ error: expect.stringMatching(/^invalid_(client|grant)$/) });
  });

  it('limits client registrations per client IP: 429 with Retry-After in the OAuth error format, other IPs unaffected', async () => {
    const oauthServer = suite.stack.appUrls['oauth-server']!;
    const register = (ip: string, path = '/register') =>
      fetch(`${oauthServer}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, origin: 'https://agent.example' },
        body: JSON.stringify({
          client_name: 'Flood',
          redirect_uris: ['http://127.0.0.1:9/callback'],
          token_endpoint_auth_method: 'none',
        }),
      });
    for (let i = 0; i < REGISTER_PER_MINUTE; i += 1) expect((await register('198.51.100.7')).status).toBe(201);
    const refused = await register('198.51.100.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(await refused.json()).toEqual({
      error: 'rate_limited',
      error_description: expect.stringMatching(/At most 20 per minute/),
    });
    // The provider also serves /register/: it is the same endpoint and the same limit.
    expect((await register('198.51.100.7', '/register/')).status).toBe(429);
    expect((await register('198.51.100.8')).status).toBe(201);
  });

  it('limits wallet sign-in messages per client IP across the consent and connections pages (429, Retry-After)', async () => {
    const oauthServer = suite.stack.appUrls['oauth-server']!;
    const challenge = (path: string) =>
      fetch(`${oauthServer}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.9' },
        body: JSON.stringify({ wallet: `0x${'5'.repeat(40)}` }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_PER_MINUTE; i += 1)
      statuses.push((await challenge(i % 2 ? '/connections/challenge' : '/interaction/unknown/challenge')).status);
    expect(new Set(statuses)).toEqual(new Set([200, 410]));
    const refused = await challenge('/connections/challenge');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({
      ok: false,
      error: { code: 'rate_limited', message: expect.stringMatching(/Too many sign-in requests/) },
    });
    expect((await challenge('/interaction/unknown/challenge')).status).toBe(429);
  });

  it('limits every request per client IP, pages and OAuth endpoints alike (429 in the OAuth error format); probes are not limited', async () => {
    const oauthServer = suite.stack.appUrls['oauth-server']!;
    const get = (path: string, ip: string) => fetch(`${oauthServer}${path}`, { headers: { 'x-forwarded-for': ip } });
    const paths = ['/.well-known/oauth-authorization-server', '/jwks', '/connections'];
    const answers = await Promise.all(
      Array.from({ length: REQUESTS_BURST + 140 }, (_, i) => get(paths[i % paths.length]!, '198.51.100.20')),
    );
    const statuses = answers.map((a) => a.status);
    // The burst is served (give or take a token leased to the replica and left unused), the rest refused.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
    expect(statuses.filter((s) => s !== 429).length).toBeGreaterThanOrEqual(REQUESTS_BURST - 5);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({
      error: 'rate_limited',
      error_description: expect.stringMatching(/Too many requests from this network/),
    });
    expect((await get('/readyz', '198.51.100.20')).status).toBe(200);
    expect((await get('/.well-known/oauth-authorization-server', '198.51.100.21')).status).toBe(200);
  });
});
