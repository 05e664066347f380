import { mcpResource } from '@paper/contracts';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { privateKeyToAccount } from 'viem/accounts';
import { DEFAULT_TEST_LIMITS, screenshot } from './consent-driver';
import { connectWithConsent, denyConsent, finishConsent, startConsent } from './connect-flow';
import { authorizationRequest, eventually, exchangeCode, registerPublicClient } from './oauth-test-client';
import { useOAuthSuite } from './oauth-suite';

const SCREENSHOTS = process.env['SCREENSHOTS'] === '1';

describe('OAuth: connecting an agent through the consent page (Chromium, injected EIP-1193 wallet)', () => {
  const suite = useOAuthSuite({ screenshots: SCREENSHOTS });

  it('publishes RFC 8414 metadata with S256 PKCE, open registration, revocation and CORS', async () => {
    const res = await fetch(`${suite.stack.baseUrl}/.well-known/oauth-authorization-server`, {
      headers: { origin: 'https://claude.ai' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const meta = (await res.json()) as Record<string, unknown>;
    expect(meta).toMatchObject({
      issuer: suite.stack.baseUrl,
      authorization_endpoint: `${suite.stack.baseUrl}/authorize`,
      token_endpoint: `${suite.stack.baseUrl}/token`,
      registration_endpoint: `${suite.stack.baseUrl}/register`,
      revocation_endpoint: `${suite.stack.baseUrl}/revoke`,
      jwks_uri: `${suite.stack.baseUrl}/jwks`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      response_types_supported: ['code'],
    });
    expect(meta['scopes_supported']).toEqual(expect.arrayContaining(['trade:read', 'trade:write', 'offline_access']));
    expect(meta['token_endpoint_auth_methods_supported']).toContain('none');
    // Metadata, JWKS and registration are open to every origin with `*`, never an echoed Origin.
    for (const path of ['/.well-known/openid-configuration', '/jwks']) {
      const doc = await fetch(`${suite.stack.baseUrl}${path}`, { headers: { origin: 'https://chatgpt.com' } });
      expect(doc.status).toBe(200);
      expect(doc.headers.get('access-control-allow-origin')).toBe('*');
    }
    const metadataPreflight = await fetch(`${suite.stack.baseUrl}/.well-known/oauth-authorization-server`, {
      method: 'OPTIONS',
      headers: { origin: 'https://claude.ai', 'access-control-request-method': 'GET' },
    });
    expect(metadataPreflight.status).toBe(204);
    expect(metadataPreflight.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await fetch(`${suite.stack.baseUrl}/register`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const tokenPreflight = await fetch(`${suite.stack.baseUrl}/token`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
    });
    expect(tokenPreflight.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
  });

  it('connects a wallet with guardrails and issues an ES256 JWT for the MCP resource carrying wallet and session key', async () => {
    const flow = await connectWithConsent(suite.env, { shots: true });
    expect(flow.callbackUrl.searchParams.get('iss')).toBe(suite.stack.baseUrl);
    const tokens = await exchangeCode(flow.client, flow.callbackUrl, flow.request);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(900);
    expect(tokens.refresh_token).toEqual(expect.any(String));

    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const { payload } = await jwtVerify(
      tokens.access_token,
      createRemoteJWKSet(new URL(`${suite.stack.baseUrl}/jwks`)),
      {
        issuer: suite.stack.baseUrl,
        audience: mcpResource(suite.stack.baseUrl),
        typ: 'at+jwt',
      },
    );
    const wallet = flow.wallet!.address;
    expect(payload).toMatchObject({ sub: wallet, wallet, client_id: flow.client.clientId });
    expect(String(payload['scope']).split(' ')).toEqual(expect.arrayContaining(['trade:read', 'trade:write']));
    const sessionKey = String(payload['session_key']);
    expect(sessionKey).toMatch(/^0x[0-9a-f]{40}$/);

    // The owner signed exactly the limits chosen on the page, for this key, and never withdrawal.
    const [typed] = flow.wallet!.signedTypedData();
    expect(typed!.message).toMatchObject({
      wallet: expect.stringMatching(new RegExp(wallet, 'i')),
      sessionKey: expect.stringMatching(new RegExp(sessionKey, 'i')),
      maxMarginPerTradeMicro: '50000000',
      maxLeverage: 300,
      maxDailyNotionalMicro: '40000000000',
      maxOpenPositions: 3,
      allowedMarkets: 'BTC',
      requireConfirmation: false,
      canWithdraw: false,
    });

    // trading-executor verified the approval and registered the key with those guardrails.
    const [registered] = await suite.query<{
      wallet: string;
      guardrails: Record<string, unknown>;
      expires_at: Date;
      revoked_at: Date | null;
    }>('SELECT wallet, guardrails, expires_at, revoked_at FROM exchange.session_keys WHERE address = $1', [sessionKey]);
    expect(registered).toMatchObject({ wallet, revoked_at: null });
    expect(registered!.guardrails).toEqual({
      maxMarginPerTradeUsd: '50',
      maxLeverage: 300,
      maxDailyNotionalUsd: '40000',
      maxOpenPositions: 3,
      allowedMarkets: ['BTC'],
      requireConfirmation: false,
    });
    const days = (registered!.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    // The private part stays on the server, sealed.
    const [secret] = await suite.query<{ encrypted_private_key: string; wallet: string }>(
      'SELECT encrypted_private_key, wallet FROM oauth.session_key_secrets WHERE address = $1 AND revoked_at IS NULL',
      [sessionKey],
    );
    expect(secret!.wallet).toBe(wallet);
    expect(secret!.encrypted_private_key).toMatch(/^v1\./);
    expect(secret!.encrypted_private_key).not.toMatch(/0x[0-9a-f]{64}/i);
    await flow.context.close();
  });

  it('lets the owner answer a request to trade with read-only access: no trading key, no trade:write', async () => {
    const started = await startConsent(suite.env, {
      scope: 'trade:read trade:write offline_access',
      clientName: 'Curious Agent',
    });
    await started.driver.chooseReadOnly();
    expect(await started.page.locator('#guardrails').isVisible()).toBe(false);
    const callbackUrl = await finishConsent(suite.env, started, { scope: 'trade:read' });
    const tokens = await exchangeCode(started.client, callbackUrl, started.request);
    const claims = decodeJwt(tokens.access_token);
    expect(String(claims['scope']).split(' ')).toEqual(['trade:read']);
    expect(claims['session_key']).toBeUndefined();
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(started.wallet!.signedTypedData()).toEqual([]);
    const keys = await suite.query('SELECT address FROM oauth.session_key_secrets WHERE client_id = $1', [
      started.client.clientId,
    ]);
    expect(keys).toEqual([]);
    // A refresh keeps what the owner granted.
    const refreshed = await oidc.refreshTokenGrant(started.client.config, tokens.refresh_token!);
    expect(String(decodeJwt(refreshed.access_token)['scope'])).toBe('trade:read');
    await started.context.close();
  });

  it.each([
    ['a 390 px phone', { width: 390, height: 844 }, 'consent-phone'],
    ['a desktop', { width: 1280, height: 800 }, undefined],
  ] as const)(
    'on %s: opens at the card naming the app and what it asks; the faucet answers at its button',
    async (_label, viewport, shot) => {
      const context = await suite.browser.newContext({
        viewport,
        ...(viewport.width < 500 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
      });
      const started = await startConsent(suite.env, { context, clientName: 'Phone Agent', stopAt: 'open' });
      const { page } = started;
      // The page starts at the top: the card that says which app asks for what is in view.
      expect(await page.evaluate('window.scrollY')).toBe(0);
      const card = (await page.locator('section.request').boundingBox())!;
      expect(card.y).toBeGreaterThanOrEqual(0);
      expect(card.y).toBeLessThan(viewport.height / 2);
      expect(await page.getByRole('heading', { name: /Phone Agent wants to connect/ }).isVisible()).toBe(true);
      // A permission is text, not something that looks like a link.
      const look = (await page.evaluate(`(() => {
      const el = [...document.querySelectorAll('li.scope strong')].find((node) => node.textContent === 'Trade within your limits');
      const own = getComputedStyle(el);
      return { color: own.color, text: getComputedStyle(el.closest('li')).color, decoration: own.textDecorationLine, cursor: own.cursor };
    })()`)) as { color: string; text: string; decoration: string; cursor: string };
      expect(look).toEqual({ color: look.text, text: look.text, decoration: 'none', cursor: 'auto' });
      await screenshot(SCREENSHOTS && shot !== undefined, page, shot ?? '');

      await started.driver.connectBrowserWallet();
      await started.driver.signIn();
      const fund = page.getByRole('button', { name: 'Fund this wallet with test USDC' });
      await fund.scrollIntoViewIfNeeded();
      await fund.press('Enter');
      const result = page.locator('#fund-result');
      await result.filter({ hasText: /^Added 1,000 test USDC to 0x/ }).waitFor();
      // The result is right below the button, on screen, and the button says what happened.
      const button = (await page.locator('#fund').boundingBox())!;
      const text = (await result.boundingBox())!;
      expect(text.y - (button.y + button.height)).toBeGreaterThanOrEqual(0);
      expect(text.y - (button.y + button.height)).toBeLessThan(40);
      expect(text.y + text.height).toBeLessThanOrEqual(viewport.height);
      expect(button.y).toBeGreaterThanOrEqual(0);
      expect(await page.locator('#fund').textContent()).toBe('Funded: add more test USDC');
      expect(await page.locator('#status').textContent()).not.toContain('Added');
      await screenshot(SCREENSHOTS && shot !== undefined, page, 'consent-funded', '#faucet-box');
      await context.close();
    },
  );

  it('rotates refresh tokens, and reuse of an old one revokes the grant and its trading key', async () => {
    const flow = await connectWithConsent(suite.env);
    const first = await exchangeCode(flow.client, flow.callbackUrl, flow.request);
    const second = await oidc.refreshTokenGrant(flow.client.config, first.refresh_token!);
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const { payload } = await jwtVerify(
      second.access_token,
      createRemoteJWKSet(new URL(`${suite.stack.baseUrl}/jwks`)),
      { audience: mcpResource(suite.stack.baseUrl) },
    );
    const sessionKey = String(payload['session_key']);

    await expect(oidc.refreshTokenGrant(flow.client.config, first.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // The reuse answer comes only after the session key was revoked here and its revocation queued for the exchange.
    const [secret] = await suite.query<{ revoked_at: Date | null }>(
      'SELECT revoked_at FROM oauth.session_key_secrets WHERE address = $1',
      [sessionKey],
    );
    expect(secret!.revoked_at).toBeInstanceOf(Date);
    // The whole grant is gone: even the newest refresh token no longer works.
    await expect(oidc.refreshTokenGrant(flow.client.config, second.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const revokedOnExchange = await eventually(
      async () =>
        (
          await suite.query<{ revoked_at: Date | null }>(
            'SELECT revoked_at FROM exchange.session_keys WHERE address = $1',
            [sessionKey],
          )
        )[0]?.revoked_at,
      'the exchange to revoke the session key',
    );
    expect(revokedOnExchange).toBeInstanceOf(Date);
    await flow.context.close();
  });

  it('gives a client that registered the refresh_token grant a rotating refresh token without offline_access, independent of the browser session', async () => {
    const flow = await connectWithConsent(suite.env, { scope: 'trade:read trade:write' });
    const first = await exchangeCode(flow.client, flow.callbackUrl, flow.request);
    expect(first.refresh_token).toEqual(expect.any(String));
    expect(String(decodeJwt(first.access_token)['scope']).split(' ')).not.toContain('offline_access');
    // The connection lasts as long as its trading key (7 days), not the default 30 days.
    const [grant] = await suite.query<{ expires_at: Date }>(
      `SELECT expires_at FROM oauth.oidc_models WHERE kind = 'Grant' AND payload->>'clientId' = $1`,
      [flow.client.clientId],
    );
    const [key] = await suite.query<{ expires_at: Date }>(
      'SELECT expires_at FROM oauth.session_key_secrets WHERE client_id = $1',
      [flow.client.clientId],
    );
    expect(Math.abs(grant!.expires_at.getTime() - key!.expires_at.getTime())).toBeLessThan(5000);
    // Ending the consent page's browser session does not end the connection.
    await flow.context.close();
    await suite.query(`DELETE FROM oauth.oidc_models WHERE kind = 'Session'`);
    const second = await oidc.refreshTokenGrant(flow.client.config, first.refresh_token!);
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(decodeJwt(second.access_token)['session_key']).toBe(decodeJwt(first.access_token)['session_key']);
  });

  it('revoking the refresh token at /revoke ends the connection and its trading key', async () => {
    const flow = await connectWithConsent(suite.env);
    const tokens = await exchangeCode(flow.client, flow.callbackUrl, flow.request);
    const sessionKey = String(decodeJwt(tokens.access_token)['session_key']);
    await oidc.tokenRevocation(flow.client.config, tokens.refresh_token!);
    await expect(oidc.refreshTokenGrant(flow.client.config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const revoked = await eventually(
      async () =>
        (
          await suite.query<{ revoked_at: Date | null }>(
            'SELECT revoked_at FROM exchange.session_keys WHERE address = $1',
            [sessionKey],
          )
        )[0]?.revoked_at,
      'the exchange to revoke the session key',
    );
    expect(revoked).toBeInstanceOf(Date);
    await flow.context.close();
  });

  it('keeps focus on an invalid limit, described by its error, and approves once it is fixed (keyboard only)', async () => {
    const started = await startConsent(suite.env);
    await started.driver.setLimits({ ...DEFAULT_TEST_LIMITS, maxLeverage: '0' });
    await started.driver.approve();
    await started.page.locator('#max-leverage-error').filter({ hasText: /./ }).waitFor();
    expect(await started.driver.focusedField()).toEqual({
      id: 'max-leverage',
      invalid: 'true',
      description: 'Whole number from 1 to 1000. Maximum leverage: enter a whole number from 1 to 1000.',
    });
    expect(await started.driver.errorText()).toBe('Maximum leverage: enter a whole number from 1 to 1000.');
    await screenshot(SCREENSHOTS, started.page, 'consent-error');
    // The person corrects the field and presses Approve again: the error clears and the connection completes.
    await started.page.keyboard.press('ControlOrMeta+A');
    await started.page.keyboard.type('300');
    const callbackUrl = await finishConsent(suite.env, started, { limits: DEFAULT_TEST_LIMITS });
    expect(callbackUrl.searchParams.get('code')).toEqual(expect.any(String));
    expect(started.wallet!.signedTypedData()[0]!.message['maxLeverage']).toBe(300);
    await started.context.close();
  });

  it('returns access_denied to the client when the owner denies', async () => {
    const started = await startConsent(suite.env);
    const url = await denyConsent(suite.env, started, { shots: true });
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe(started.request.state);
    expect(url.searchParams.get('iss')).toBe(suite.stack.baseUrl);
    expect(url.searchParams.get('code')).toBeNull();
    await started.context.close();
  });

  it('connects with the demo wallet generated in the browser when no browser wallet is installed', async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    const client = await registerPublicClient(suite.stack.baseUrl, [suite.callback.redirectUri], 'Demo Agent');
    const request = await authorizationRequest(client, suite.callback.redirectUri);
    await page.goto(request.url.toString());
    expect(await page.getByRole('button', { name: 'Connect browser wallet' }).isDisabled()).toBe(true);
    await page.getByText('No browser wallet was found').waitFor();
    await context.close();

    const flow = await startConsent(suite.env, {
      demoWallet: true,
      clientName: 'Demo Agent',
      shots: ['consent-demo-wallet'],
    });
    expect(await flow.page.locator('#step-review .wallet-kind').textContent()).toBe('Demo wallet · paper only');
    const storedKey = (await flow.page.evaluate("localStorage.getItem('paperPerps.demoWalletKey')")) as `0x${string}`;
    const demoAddress = privateKeyToAccount(storedKey).address.toLowerCase();
    const callbackUrl = await finishConsent(suite.env, flow);
    const tokens = await exchangeCode(flow.client, callbackUrl, flow.request);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ wallet: demoAddress, sub: demoAddress });
    const keys = await suite.query<{ wallet: string }>('SELECT wallet FROM exchange.session_keys WHERE wallet = $1', [
      demoAddress,
    ]);
    expect(keys).toHaveLength(1);
    await flow.context.close();
  });

  it('lists connections on /connections; revoking the key stops trading, revoking the connection ends it', async () => {
    const flow = await connectWithConsent(suite.env, { clientName: 'Revocable Agent' });
    const tokens = await exchangeCode(flow.client, flow.callbackUrl, flow.request);
    const sessionKey = String(decodeJwt(tokens.access_token)['session_key']);
    const page = await flow.context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${suite.stack.baseUrl}/connections`);
    await page.getByRole('heading', { name: 'Revocable Agent' }).waitFor();
    await screenshot(SCREENSHOTS, page, 'connections');
    // Plain words, each key once, and no loopback port (any port is accepted there).
    const listing = (await page.locator('main').textContent()) ?? '';
    expect(listing).toContain(
      'Returns to this computer (127.0.0.1) · Allowed to: See your account, Trade within your limits',
    );
    expect(listing).not.toMatch(/trade:read|offline_access|127\.0\.0\.1:9/);
    expect(listing.split(sessionKey).length - 1).toBe(1);

    await page.getByRole('button', { name: `Revoke trading key ${sessionKey}` }).press('Enter');
    await page.getByText('The trading key was revoked').waitFor();
    const revokedOnExchange = await eventually(
      async () =>
        (
          await suite.query<{ revoked_at: Date | null }>(
            'SELECT revoked_at FROM exchange.session_keys WHERE address = $1',
            [sessionKey],
          )
        )[0]?.revoked_at,
      'the exchange to revoke the session key',
    );
    expect(revokedOnExchange).toBeInstanceOf(Date);
    // Without an active key the connection is read-only; refresh still works until the connection is revoked.
    await page.getByText('No active trading key (read only).').waitFor();
    const refreshed = await oidc.refreshTokenGrant(flow.client.config, tokens.refresh_token!);
    expect(decodeJwt(refreshed.access_token)['session_key']).toBeUndefined();

    await page.getByRole('button', { name: 'Revoke the connection of Revocable Agent' }).press('Enter');
    await page.getByText('The connection was revoked').waitFor();
    expect(await page.getByRole('heading', { name: 'Revocable Agent' }).count()).toBe(0);
    await expect(oidc.refreshTokenGrant(flow.client.config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await flow.context.close();
  });
});
