import { decodeJwt } from 'jose';
import { connectWithConsent } from './connect-flow';
import { authorizationRequest, exchangeCode, registerPublicClient } from './oauth-test-client';
import { useOAuthSuite } from './oauth-suite';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** What a raw request to the authorization server answers, without following redirects. */
async function send(url: string, init: RequestInit = {}) {
  const res = await fetch(url, { redirect: 'manual', ...init });
  const text = await res.text();
  return {
    status: res.status,
    allow: res.headers.get('allow'),
    type: res.headers.get('content-type'),
    location: res.headers.get('location'),
    body:
      text && (res.headers.get('content-type') ?? '').includes('json')
        ? (JSON.parse(text) as Record<string, unknown>)
        : text,
  };
}

describe('OAuth endpoints as third-party clients use them: POST authorization requests, methods, error bodies', () => {
  const suite = useOAuthSuite();

  it('takes the authorization request as a form POST (OpenID Connect Core 3.1.2.1): the same consent, a code, tokens', async () => {
    const flow = await connectWithConsent(suite.env, { post: true });
    expect(flow.callbackUrl.searchParams.get('state')).toBe(flow.request.state);
    const tokens = await exchangeCode(flow.client, flow.callbackUrl, flow.request);
    await flow.context.close();
    expect(String(decodeJwt(tokens.access_token)['scope']).split(' ')).toEqual(['trade:read', 'trade:write']);
    expect(decodeJwt(tokens.access_token)['session_key']).toEqual(expect.stringMatching(/^0x[0-9a-f]{40}$/));
    expect(tokens.refresh_token).toEqual(expect.any(String));
  });

  it('answers a POST authorization request as the GET one (to the consent page), and refuses bodies it cannot take in OAuth errors', async () => {
    const client = await registerPublicClient(suite.stack.baseUrl, [suite.callback.redirectUri]);
    const request = await authorizationRequest(client, suite.callback.redirectUri);
    const authorize = `${suite.stack.baseUrl}/authorize`;
    const posted = await send(authorize, { method: 'POST', headers: FORM, body: request.url.searchParams.toString() });
    const got = await send(request.url.toString());
    expect([302, 303]).toContain(got.status);
    expect(got.location).toMatch(/\/interaction\/[\w-]+$/);
    expect(posted.status).toBe(got.status);
    expect(posted.location).toMatch(/\/interaction\/[\w-]+$/);

    // Without PKCE the POST is refused as the GET is: back to the client with invalid_request.
    const withoutPkce = new URLSearchParams(request.url.searchParams);
    withoutPkce.delete('code_challenge');
    const refused = await send(authorize, { method: 'POST', headers: FORM, body: withoutPkce.toString() });
    expect(refused.status).toBe(303);
    expect(new URL(refused.location!).searchParams.get('error')).toBe('invalid_request');

    expect(
      await send(authorize, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(Object.fromEntries(request.url.searchParams)),
      }),
    ).toMatchObject({
      status: 415,
      type: expect.stringContaining('application/json'),
      body: {
        error: 'invalid_request',
        error_description: expect.stringContaining('application/x-www-form-urlencoded'),
      },
    });
    expect(
      await send(authorize, { method: 'POST', headers: FORM, body: `${request.url.searchParams}&state=a%00b` }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.stringContaining('state') },
    });
  });

  it.each([
    ['GET', '/register', 'POST, OPTIONS'],
    ['PUT', '/register', 'POST, OPTIONS'],
    ['DELETE', '/register/', 'POST, OPTIONS'],
    ['GET', '/token', 'POST, OPTIONS'],
    ['PUT', '/token', 'POST, OPTIONS'],
    ['GET', '/revoke', 'POST, OPTIONS'],
    ['POST', '/jwks', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/authorize', 'GET, HEAD, POST'],
    ['POST', '/.well-known/oauth-authorization-server', 'GET, HEAD, OPTIONS'],
    ['PUT', '/.well-known/openid-configuration', 'GET, HEAD, OPTIONS'],
  ])('answers %s %s with 405, Allow: %s, and an OAuth error body', async (method, path, allow) => {
    const answer = await send(`${suite.stack.baseUrl}${path}`, {
      method,
      ...(method === 'GET' || method === 'DELETE'
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: '{}' }),
    });
    expect(answer).toEqual({
      status: 405,
      allow,
      type: expect.stringContaining('application/json'),
      location: null,
      body: { error: 'invalid_request', error_description: expect.stringContaining(`${method} is not allowed`) },
    });
  });

  it('keeps the methods each endpoint takes, and answers unknown paths under them with a 404 OAuth error body', async () => {
    const base = suite.stack.baseUrl;
    expect((await send(`${base}/.well-known/oauth-authorization-server`)).status).toBe(200);
    expect((await send(`${base}/jwks`, { method: 'HEAD' })).status).toBe(200);
    expect(
      (await send(`${base}/register`, { method: 'OPTIONS', headers: { origin: 'https://agent.example' } })).status,
    ).toBe(204);
    expect(
      await send(`${base}/token`, { method: 'POST', headers: FORM, body: 'grant_type=refresh_token&client_id=nobody' }),
    ).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await send(`${base}/token/extra`, { method: 'POST', headers: FORM, body: 'a=b' })).toMatchObject({
      status: 404,
      type: expect.stringContaining('application/json'),
      body: { error: 'invalid_request', error_description: expect.stringContaining('/token/extra') },
    });
  });
});
