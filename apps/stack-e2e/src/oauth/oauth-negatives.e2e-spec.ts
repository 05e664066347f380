import * as oidc from 'openid-client';
import { DEFAULT_TEST_LIMITS } from './consent-driver';
import { connectWithConsent, finishConsent, startConsent } from './connect-flow';
import { authorizationRequest, exchangeCode, rawTokenRequest, registerPublicClient } from './oauth-test-client';
import { useOAuthSuite } from './oauth-suite';

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
    const withoutPkce = oidc.buildAuthorizationUrl(registered.config, { redirect_uri: suite.callback.redirectUri, scope: 'trade:read', state: 's1' });
    const missing = await authorize(withoutPkce);
    expect(missing.status).toBe(303);
    expect(missing.location?.searchParams.get('error')).toBe('invalid_request');
    expect(missing.location?.searchParams.get('error_description')).toMatch(/PKCE/i);
    expect(missing.location?.searchParams.get('code')).toBeNull();

    const plain = await authorizationRequest(registered, suite.callback.redirectUri, 'trade:read', { code_challenge_method: 'plain' });
    const refused = await authorize(plain.url);
    expect(refused.location?.searchParams.get('error')).toBe('invalid_request');
    expect(refused.location?.searchParams.get('code')).toBeNull();
  });

  it('never redirects to an unregistered URI (no loopback port leniency for other hosts or paths)', async () => {
    const registered = await client();
    for (const redirect of ['https://evil.example/callback', `http://127.0.0.1:${suite.callback.port}/other`, `http://localhost:${suite.callback.port}/callback`]) {
      const request = await authorizationRequest(registered, redirect);
      const answer = await authorize(request.url);
      expect(answer.status).toBe(400);
      expect(answer.location).toBeNull();
      expect(answer.body).toContain('never registered');
    }
  });

  it('refuses a resource (audience) this server does not issue tokens for', async () => {
    const registered = await client();
    const request = await authorizationRequest(registered, suite.callback.redirectUri, 'trade:read', { resource: 'https://other.example/api' });
    const answer = await authorize(request.url);
    expect(answer.location?.searchParams.get('error')).toBe('invalid_target');
    expect(answer.location?.searchParams.get('code')).toBeNull();
  });

  it('refuses a wrong or missing code verifier and a wrong redirect URI; a reused code revokes the grant', async () => {
    const flow = await connectWithConsent(suite.env);
    const code = flow.callbackUrl.searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', client_id: flow.client.clientId, code, redirect_uri: flow.request.redirectUri };

    const wrong = await rawTokenRequest(suite.stack.baseUrl, { ...base, code_verifier: oidc.randomPKCECodeVerifier() });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(wrong.body['access_token']).toBeUndefined();
    const missing = await rawTokenRequest(suite.stack.baseUrl, base);
    expect(missing.status).toBe(400);
    expect(missing.body['access_token']).toBeUndefined();
    const otherRedirect = await rawTokenRequest(suite.stack.baseUrl, { ...base, code_verifier: flow.request.verifier, redirect_uri: 'http://127.0.0.1:1/elsewhere' });
    expect(otherRedirect).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const tokens = await exchangeCode(flow.client, flow.callbackUrl, flow.request);
    expect(tokens.access_token).toEqual(expect.any(String));
    const reused = await rawTokenRequest(suite.stack.baseUrl, { ...base, code_verifier: flow.request.verifier });
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // Replaying the code is treated as theft: the grant and its refresh token are gone.
    await expect(oidc.refreshTokenGrant(flow.client.config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
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
    expect((await suite.db.query('SELECT 1 FROM oauth.session_key_secrets WHERE wallet = $1', [wallet])).rowCount).toBe(0);
    expect((await suite.db.query(`SELECT 1 FROM oauth.oidc_models WHERE kind = 'Grant' AND payload->>'accountId' = $1`, [wallet])).rowCount).toBe(0);

    // The owner can simply try again: an honest signature goes through.
    walletOptions.tamperApproval = false;
    const callbackUrl = await finishConsent(suite.env, started);
    expect(callbackUrl.searchParams.get('code')).toEqual(expect.any(String));
    expect((await suite.db.query('SELECT 1 FROM exchange.session_keys WHERE wallet = $1', [wallet])).rowCount).toBe(1);
    await started.context.close();
  });
});
