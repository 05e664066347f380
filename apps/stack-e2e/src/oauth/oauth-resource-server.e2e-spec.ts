import { toolApiResource } from '@paper/contracts';
import { startTestStack, type TestStack } from '@paper/dev-stack';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { Client } from 'pg';
import type { Browser } from 'playwright-core';
import { rawMcpPost, toolsCall } from '../mcp/mcp-test-client';
import { DEFAULT_TEST_LIMITS, launchChromium } from './consent-driver';
import { finishConsent, type FlowEnv, startConsent } from './connect-flow';
import { CallbackServer, eventually, exchangeCode, type RegisteredClient } from './oauth-test-client';

interface Answer {
  status: number;
  body: { ok: boolean; data?: Record<string, unknown>; error?: { code: string; message: string } };
  headers: Headers;
}

/** A short access-token lifetime, so the expired-token case uses a token the server really issued. */
const ACCESS_TOKEN_TTL_SECONDS = 20;
/** 50 USDC at 200x: exactly the exchange's minimum position, within every limit of DEFAULT_TEST_LIMITS. */
const SMALL_TRADE = { market: 'BTC', side: 'long', marginUsd: 50, leverage: 200 } as const;

describe('OAuth tokens at the tool API: the connected wallet trades only within the chosen guardrails', () => {
  let stack: TestStack;
  let browser: Browser;
  let db: Client;
  const callback = new CallbackServer();
  let env: FlowEnv;
  let client: RegisteredClient;
  let tokens: { access: string; refresh: string };
  let wallet: string;
  let sessionKey: string;

  const call = async (path: string, token: string | undefined, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Answer['body'], headers: res.headers };
  };

  /** The current access token, refreshed (rotating the refresh token) when less than 12 s of it are left. */
  const accessToken = async (): Promise<string> => {
    if (Number(decodeJwt(tokens.access).exp) - Date.now() / 1000 < 12) {
      const next = await oidc.refreshTokenGrant(client.config, tokens.refresh);
      tokens = { access: next.access_token, refresh: next.refresh_token! };
    }
    return tokens.access;
  };
  const me = async (tool: string, args: Record<string, unknown>) =>
    call(`/api/v1/me/tools/${tool}`, await accessToken(), args);

  beforeAll(async () => {
    stack = await startTestStack({
      apps: ['venue-sim', 'trading-executor', 'oauth-server', 'tools-gateway', 'mcp-server'],
      env: { OAUTH_ACCESS_TTL_SECONDS: String(ACCESS_TOKEN_TTL_SECONDS) },
    });
    browser = await launchChromium();
    await callback.start();
    db = new Client({ connectionString: stack.database.url });
    await db.connect();
    env = { baseUrl: stack.baseUrl, browser, callback, screenshots: false };

    // Connect with max 50 USDC margin at up to 300x, 40,000 USDC a day, 3 open positions, BTC only, no
    // preview required; fund the wallet from the page's paper-mode faucet first.
    const started = await startConsent(env);
    await started.page.getByRole('button', { name: 'Fund this wallet with test USDC' }).press('Enter');
    await started.page.getByText(/Added 1,000 test USDC/).waitFor();
    const callbackUrl = await finishConsent(env, started, { limits: DEFAULT_TEST_LIMITS });
    const issued = await exchangeCode(started.client, callbackUrl, started.request);
    client = started.client;
    tokens = { access: issued.access_token, refresh: issued.refresh_token! };
    sessionKey = String(decodeJwt(tokens.access)['session_key']);
    wallet = started.wallet!.address;
    await started.context.close();
  });

  afterAll(async () => {
    await Promise.allSettled([db?.end(), callback.stop(), browser?.close(), stack?.stop()]);
  });

  it('/api/v1/me reports the wallet, its session key state and the guardrails chosen on the consent page', async () => {
    const answer = await call('/api/v1/me', await accessToken());
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ wallet, canTrade: true });
    expect(answer.body.data?.['guardrails']).toEqual({
      maxMarginPerTradeUsd: 50,
      maxLeverage: 300,
      maxDailyNotionalUsd: 40000,
      maxOpenPositions: 3,
      allowedMarkets: ['BTC'],
      requireConfirmation: false,
    });
    expect(answer.body.data).toMatchObject({
      scopes: ['trade:read', 'trade:write'],
      session: { active: true, address: sessionKey, label: 'Test Agent' },
      daily: { limitUsd: 40000, usedUsd: 0, remainingUsd: 40000 },
    });
    const days =
      (Date.parse(String((answer.body.data?.['session'] as { expiresAt: string }).expiresAt)) - Date.now()) /
      86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
  });

  it('previews a trade within the limits, and refuses previews above the chosen leverage or margin or on another market', async () => {
    const ok = await me('preview_trade', { market: 'BTC', side: 'long', marginUsd: 40, leverage: 300 });
    expect(ok.body.error ?? null).toBeNull();
    expect(ok.body.data).toMatchObject({ market: 'BTC', marginUsd: 40, leverage: 300, notionalUsd: 12000 });
    for (const args of [
      { market: 'BTC', marginUsd: 40, leverage: 301 },
      { market: 'BTC', marginUsd: 60, leverage: 200 },
      { market: 'ETH', marginUsd: 40, leverage: 300 },
    ]) {
      const refused = await me('preview_trade', { side: 'long', ...args });
      expect({ status: refused.status, code: refused.body.error?.code }).toEqual({
        status: 400,
        code: 'guardrail_exceeded',
      });
    }
  });

  it('refuses to open a position above a guardrail: no position is written', async () => {
    for (const [args, limit] of [
      [{ ...SMALL_TRADE, leverage: 301 }, /300x/],
      [{ ...SMALL_TRADE, marginUsd: 51 }, /50 USDC per trade/],
      [{ ...SMALL_TRADE, market: 'ETH' }, /do not allow trading ETH/],
    ] as const) {
      const refused = await me('open_position', args);
      expect({ status: refused.status, code: refused.body.error?.code }).toEqual({
        status: 400,
        code: 'guardrail_exceeded',
      });
      expect(refused.body.error?.message).toMatch(limit);
    }
    expect((await db.query('SELECT 1 FROM exchange.positions WHERE wallet = $1', [wallet])).rowCount).toBe(0);
  });

  it('opens allowed trades, then refuses once the open-positions and the daily-notional guardrails are reached', async () => {
    const opened: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const fill = await me('open_position', SMALL_TRADE);
      expect({ status: fill.status, error: fill.body.error }).toEqual({ status: 200, error: undefined });
      expect(fill.body.data).toMatchObject({
        status: 'filled',
        position: { market: 'BTC', marginUsd: 50, leverage: 200, notionalUsd: 10000 },
      });
      opened.push((fill.body.data!['position'] as { positionId: string }).positionId);
    }
    // 30,000 of 40,000 USDC used today, but 3 of 3 positions are open.
    const fourth = await me('open_position', SMALL_TRADE);
    expect({ status: fourth.status, code: fourth.body.error?.code }).toEqual({
      status: 400,
      code: 'guardrail_exceeded',
    });
    expect(fourth.body.error?.message).toMatch(/at most 3/);

    const closed = await me('close_positions', { positionIds: [opened[0]] });
    expect(closed.body.data).toMatchObject({ closed: 1 });
    const within = await me('open_position', SMALL_TRADE);
    expect(within.body.data).toMatchObject({ status: 'filled' });
    opened.push((within.body.data!['position'] as { positionId: string }).positionId);

    // 40,000 of 40,000 USDC used today: with a free position slot the daily guardrail refuses.
    await me('close_positions', { positionIds: [opened[1]] });
    const overDaily = await me('open_position', SMALL_TRADE);
    expect({ status: overDaily.status, code: overDaily.body.error?.code }).toEqual({
      status: 400,
      code: 'guardrail_exceeded',
    });
    expect(overDaily.body.error?.message).toMatch(/daily guardrail of 40,000 USDC/);
    const usage = await call('/api/v1/me', await accessToken());
    expect(usage.body.data).toMatchObject({ daily: { limitUsd: 40000, usedUsd: 40000, remainingUsd: 0 } });
    const open = await db.query(`SELECT 1 FROM exchange.positions WHERE wallet = $1 AND status = 'open'`, [wallet]);
    expect(open.rowCount).toBe(2);
  });

  it('answers 403 insufficient_scope naming the scopes when the token lacks trade:write; the refresh is refused, a new authorization with them trades (RFC 6750 §3.1 step-up)', async () => {
    const started = await startConsent(env, { scope: 'trade:read' });
    const callbackUrl = await finishConsent(env, started, { scope: 'trade:read' });
    const readOnly = await exchangeCode(started.client, callbackUrl, started.request);
    await started.context.close();
    expect((await call('/api/v1/me', readOnly.access_token)).status).toBe(200);
    const refused = await call('/api/v1/me/tools/preview_trade', readOnly.access_token, SMALL_TRADE);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('insufficient_scope');
    const challenge = refused.headers.get('www-authenticate')!;
    expect(challenge).toBe('Bearer realm="tool-api", error="insufficient_scope", scope="trade:read trade:write"');
    const needed = /scope="([^"]+)"/.exec(challenge)![1]!;

    // A refresh cannot widen the connection: right after the refusal it is answered invalid_grant, naming why.
    await expect(oidc.refreshTokenGrant(started.client.config, readOnly.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/trade:write/),
    });

    // The client asks for the challenged scopes in a new authorization; the owner approves trading.
    const stepUp = await startConsent(env, { scope: needed });
    const approved = await finishConsent(env, stepUp, { scope: needed });
    const trading = await exchangeCode(stepUp.client, approved, stepUp.request);
    await stepUp.context.close();
    expect(String(decodeJwt(trading.access_token)['scope']).split(' ')).toEqual(['trade:read', 'trade:write']);
    await eventually(
      async () => (await call('/api/v1/me', trading.access_token)).body.data?.['canTrade'] === true,
      'the trading session',
    );
    // The trading tool now runs (this new wallet has no funds, so the exchange, not the scope, answers).
    const preview = await call('/api/v1/me/tools/preview_trade', trading.access_token, SMALL_TRADE);
    expect(preview.status).not.toBe(403);
    expect(preview.body.error?.code).not.toBe('insufficient_scope');
    // Its own refreshes go through: the request for trade:write was the other connection's.
    await expect(oidc.refreshTokenGrant(stepUp.client.config, trading.refresh_token!)).resolves.toMatchObject({
      access_token: expect.any(String),
    });
  });

  it('answers 401 to a missing token and to a token of this server once it has expired', async () => {
    expect((await call('/api/v1/me', undefined)).status).toBe(401);
    const next = await oidc.refreshTokenGrant(client.config, tokens.refresh);
    tokens = { access: next.access_token, refresh: next.refresh_token! };
    const issued = tokens.access;
    const exp = Number(decodeJwt(issued).exp);
    expect(exp - Number(decodeJwt(issued).iat)).toBe(ACCESS_TOKEN_TTL_SECONDS);
    expect((await call('/api/v1/me', issued)).status).toBe(200);
    const refused = await eventually(
      async () => {
        const answer = await call('/api/v1/me', issued);
        return answer.status === 401 ? answer : undefined;
      },
      'the issued access token to expire',
      (ACCESS_TOKEN_TTL_SECONDS + 15) * 1000,
    );
    expect(Date.now() / 1000).toBeGreaterThanOrEqual(exp);
    expect(refused.body.error).toMatchObject({ code: 'invalid_token', message: expect.stringMatching(/expired/) });
    expect(refused.headers.get('www-authenticate')).toMatch(/invalid_token/);
  });

  it('answers 401 at /mcp to a token this server issued for the other resource (the tool API)', async () => {
    const started = await startConsent(env, { scope: 'trade:read', resource: toolApiResource(stack.baseUrl) });
    const callbackUrl = await finishConsent(env, started, { scope: 'trade:read' });
    const forToolApi = (await exchangeCode(started.client, callbackUrl, started.request)).access_token;
    await started.context.close();
    expect(decodeJwt(forToolApi)['aud']).toBe(toolApiResource(stack.baseUrl));
    // Control: the tool API, whose resource the token names, accepts it.
    expect((await call('/api/v1/me', forToolApi)).status).toBe(200);
    const refused = await rawMcpPost(stack.baseUrl, toolsCall(1, 'get_account'), {
      authorization: `Bearer ${forToolApi}`,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token".*aud/);
  });
});
