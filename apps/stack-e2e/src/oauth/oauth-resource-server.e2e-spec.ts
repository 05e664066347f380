import { mcpResource, toolApiResource } from '@paper/contracts';
import { startTestStack, type TestStack } from '@paper/dev-stack';
import { decodeJwt, importJWK, type JWK, SignJWT } from 'jose';
import { Client } from 'pg';
import type { Browser } from 'playwright-core';
import { DEFAULT_TEST_LIMITS, launchChromium } from './consent-driver';
import { finishConsent, type FlowEnv, startConsent } from './connect-flow';
import { CallbackServer, exchangeCode } from './oauth-test-client';

interface Answer {
  status: number;
  body: { ok: boolean; data?: Record<string, unknown>; error?: { code: string; message: string } };
  headers: Headers;
}

describe('OAuth tokens at the tool API: the connected wallet trades only within the chosen guardrails', () => {
  let stack: TestStack;
  let browser: Browser;
  let db: Client;
  const callback = new CallbackServer();
  let env: FlowEnv;
  let accessToken: string;
  let wallet: string;
  let sessionKey: string;

  const call = async (path: string, token: string | undefined, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Answer['body'], headers: res.headers };
  };

  /** A token signed with the server's own key but with claims it would never issue. */
  const forge = async (claims: Record<string, unknown>, audience: string, expiresAt: number): Promise<string> => {
    const { rows } = await db.query<{ material: { keys: JWK[] } }>(`SELECT material FROM oauth.signing_keys WHERE purpose = 'jwt'`);
    const jwk = rows[0]!.material.keys[0]!;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: jwk.kid })
      .setIssuer(stack.baseUrl)
      .setSubject(wallet)
      .setAudience(audience)
      .setIssuedAt(expiresAt - 900)
      .setExpirationTime(expiresAt)
      .setJti(`forged-${audience.length}-${expiresAt}`)
      .sign(await importJWK(jwk, 'ES256'));
  };

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['venue-sim', 'trading-executor', 'oauth-server', 'tools-gateway'] });
    browser = await launchChromium();
    await callback.start();
    db = new Client({ connectionString: stack.database.url });
    await db.connect();
    env = { baseUrl: stack.baseUrl, browser, callback, screenshots: false };

    // Connect with max 50 USDC margin at up to 300x, BTC only; fund the wallet from the page's paper-mode faucet first.
    const started = await startConsent(env);
    await started.page.getByRole('button', { name: 'Fund this wallet with test USDC' }).press('Enter');
    await started.page.getByText(/Added 1,000 test USDC/).waitFor();
    const callbackUrl = await finishConsent(env, started, { limits: DEFAULT_TEST_LIMITS });
    accessToken = (await exchangeCode(started.client, callbackUrl, started.request)).access_token;
    sessionKey = String(decodeJwt(accessToken)['session_key']);
    wallet = started.wallet!.address;
    await started.context.close();
  });

  afterAll(async () => {
    await Promise.allSettled([db?.end(), callback.stop(), browser?.close(), stack?.stop()]);
  });

  it('/api/v1/me reports the wallet, its session key state and the guardrails chosen on the consent page', async () => {
    const me = await call('/api/v1/me', accessToken);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ wallet, canTrade: true });
    expect(me.body.data?.['guardrails']).toEqual({
      maxMarginPerTradeUsd: 50,
      maxLeverage: 300,
      maxDailyNotionalUsd: 40000,
      maxOpenPositions: 3,
      allowedMarkets: ['BTC'],
      requireConfirmation: false,
    });
    expect(me.body.data).toMatchObject({
      scopes: ['trade:read', 'trade:write'],
      session: { active: true, address: sessionKey, label: 'Test Agent' },
      daily: { limitUsd: 40000, usedUsd: 0, remainingUsd: 40000 },
    });
    const days = (Date.parse(String((me.body.data?.['session'] as { expiresAt: string }).expiresAt)) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
  });

  it('previews a trade within the limits', async () => {
    const ok = await call('/api/v1/me/tools/preview_trade', accessToken, { market: 'BTC', side: 'long', marginUsd: 40, leverage: 300 });
    expect(ok.body.error ?? null).toBeNull();
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ market: 'BTC', marginUsd: 40, leverage: 300, notionalUsd: 12000 });
  });

  it('refuses a trade above the chosen leverage or margin, or on a market the owner did not allow', async () => {
    for (const args of [
      { market: 'BTC', marginUsd: 40, leverage: 301 },
      { market: 'BTC', marginUsd: 60, leverage: 200 },
      { market: 'ETH', marginUsd: 40, leverage: 300 },
    ]) {
      const refused = await call('/api/v1/me/tools/preview_trade', accessToken, { side: 'long', ...args });
      expect(refused.status).toBe(400);
      expect(refused.body.error?.code).toBe('guardrail_exceeded');
      expect(refused.body.data).toBeUndefined();
    }
  });

  it('answers 403 insufficient_scope when the token lacks trade:write', async () => {
    const started = await startConsent(env, { scope: 'trade:read' });
    const callbackUrl = await finishConsent(env, started, { scope: 'trade:read' });
    const readOnly = (await exchangeCode(started.client, callbackUrl, started.request)).access_token;
    await started.context.close();
    expect((await call('/api/v1/me', readOnly)).status).toBe(200);
    const refused = await call('/api/v1/me/tools/preview_trade', readOnly, { market: 'BTC', side: 'long', marginUsd: 10, leverage: 5 });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('insufficient_scope');
    expect(refused.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
  });

  it('answers 401 to a missing, expired or foreign-audience token', async () => {
    const claims = { wallet, scope: 'trade:read trade:write', client_id: 'forged' };
    const now = Math.floor(Date.now() / 1000);
    expect((await call('/api/v1/me', undefined)).status).toBe(401);
    const expired = await forge(claims, toolApiResource(stack.baseUrl), now - 60);
    const foreign = await forge(claims, 'https://other.example/api', now + 600);
    for (const token of [expired, foreign]) {
      const answer = await call('/api/v1/me/tools/preview_trade', token, { market: 'BTC', side: 'long', marginUsd: 10, leverage: 5 });
      expect(answer.status).toBe(401);
      expect(answer.body.ok).toBe(false);
    }
    // Control: the same forging with a valid audience and expiry is accepted, so the 401s above are about exp and aud.
    const valid = await forge(claims, mcpResource(stack.baseUrl), now + 600);
    expect((await call('/api/v1/me', valid)).status).toBe(200);
  });
});
