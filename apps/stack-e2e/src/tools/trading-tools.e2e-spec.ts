import { type TestStack, startTestStack } from '@paper/dev-stack';
import { Redis } from 'ioredis';
import { NO_RATE_LIMITS, REDIS_URL, TRADING_APPS, type Trader, callTool, connectTrader, sql, waitFor, waitForPrices } from './tool-test-kit';
import { type TestIssuer, startTestIssuer } from './token-issuer';

const LONG_BTC = { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1000 } as const;

describe('tool API: trading tools over HTTP', () => {
  let stack: TestStack;
  let issuer: TestIssuer;
  let trader: Trader;
  let base: string;
  let redis: Redis;

  const me = (name: string, args: Record<string, unknown> | undefined, t: Trader = trader) => callTool(base, name, args, { token: t.token });
  const preview = async (args: Record<string, unknown>, t: Trader = trader) => {
    const res = await me('preview_trade', args, t);
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 200, error: undefined });
    return res.body.data!['quoteId'] as string;
  };

  beforeAll(async () => {
    issuer = await startTestIssuer();
    stack = await startTestStack({
      apps: [...TRADING_APPS],
      // One intent at a time, so a cancel queued ahead of its target is always executed first.
      env: { OAUTH_JWKS_URL: issuer.jwksUrl, INTENT_WAIT_MS: '3000', INTENT_CONCURRENCY: '1', ...NO_RATE_LIMITS },
    });
    base = stack.baseUrl;
    issuer.bind(base);
    redis = new Redis(REDIS_URL);
    await waitForPrices(base);
    trader = await connectTrader(stack, issuer);
  });

  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
    await issuer?.stop();
  });

  describe('preview and open', () => {
    it('previews a trade with a quote valid for 3 minutes, bust price and scenarios', async () => {
      const res = await me('preview_trade', { market: 'ETH', side: 'short', marginUsd: 100, leverage: 100 });
      const d = res.body.data!;
      expect(d['quoteId']).toMatch(/^q_[0-9a-f]{32}$/);
      expect(d['validForSeconds']).toBeGreaterThanOrEqual(179);
      expect(Date.parse(d['expiresAt']) - Date.now()).toBeGreaterThan(170_000);
      expect(Date.parse(d['expiresAt']) - Date.now()).toBeLessThanOrEqual(180_000);
      expect(d).toMatchObject({ market: 'ETH', side: 'short', marginUsd: 100, leverage: 100, notionalUsd: 10000, confirmationRequired: true });
      expect(d['bustPrice']).toBeGreaterThan(d['estimatedEntryPrice']);
      expect(d['scenarios'].map((s: { label: string }) => s.label)).toEqual(['-5%', '-1%', '+1%', '+5%', 'bust']);
      expect(d['scenarios'].at(-1)).toMatchObject({ liquidated: true, pnlUsd: -100 });
      expect(res.body.summary).toContain(d['quoteId']);
      const stored = await redis.hgetall(`${stack.redisPrefix}:quotes:${d['quoteId']}`);
      expect(stored).toMatchObject({ wallet: trader.wallet, market: 'ETH', side: 'short', marginMicro: '100000000', leverage: '100' });
    });

    it('opens with a matching quote, reports the fill, and refuses to reuse the quote', async () => {
      const quoteId = await preview(LONG_BTC);
      const res = await me('open_position', { ...LONG_BTC, quoteId });
      expect(res.status).toBe(200);
      expect(res.body.data!['status']).toBe('filled');
      expect(res.body.data!['intentId']).toMatch(/^0x[0-9a-f]{64}$/);
      expect(res.body.data!['position']).toMatchObject({ market: 'BTC', side: 'long', marginUsd: 10, leverage: 1000, notionalUsd: 10000 });
      expect(res.body.data!['position'].positionId).toMatch(/^\d+$/);
      expect(res.body.summary).toContain('Opened long BTC');
      const again = await me('open_position', { ...LONG_BTC, quoteId });
      expect(again.status).toBe(400);
      expect(again.body.error!.code).toBe('quote_used');
      const status = await callTool(base, 'get_intent_status', { intentId: res.body.data!['intentId'] });
      expect(status.body.data).toMatchObject({ status: 'executed', positionIds: [res.body.data!['position'].positionId] });
    });

    it('requires a quote when the owner enabled confirmations', async () => {
      const res = await me('open_position', LONG_BTC);
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('quote_required');
      expect(res.body.error!.message).toContain('preview_trade');
    });

    it.each([
      ['marginUsd', { marginUsd: 11 }, 'marginUsd 10'],
      ['leverage', { leverage: 999 }, 'leverage 1000'],
      ['side', { side: 'short' }, 'side long'],
      ['market', { market: 'ETH' }, 'market BTC'],
    ])('refuses a quote previewed for another %s without consuming it', async (_field, change, says) => {
      const quoteId = await preview(LONG_BTC);
      const res = await me('open_position', { ...LONG_BTC, ...change, quoteId });
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('quote_mismatch');
      expect(res.body.error!.message).toContain(says);
      const stored = await redis.hgetall(`${stack.redisPrefix}:quotes:${quoteId}`);
      expect(stored['usedAt']).toBeUndefined();
    });

    it('refuses an expired quote', async () => {
      const quoteId = await preview(LONG_BTC);
      await redis.hset(`${stack.redisPrefix}:quotes:${quoteId}`, 'expiresAt', String(Date.now() - 1));
      const res = await me('open_position', { ...LONG_BTC, quoteId });
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('quote_expired');
      expect(res.body.error!.message).toContain('preview_trade');
    });

    it('refuses unknown quotes and quotes of another wallet', async () => {
      const unknown = await me('open_position', { ...LONG_BTC, quoteId: `q_${'0'.repeat(32)}` });
      expect(unknown.body.error!.code).toBe('quote_not_found');
      const other = await connectTrader(stack, issuer, { fundUsd: 100 });
      const theirs = await preview(LONG_BTC, other);
      const res = await me('open_position', { ...LONG_BTC, quoteId: theirs });
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('quote_not_found');
    });

    it('opens without a quote when the owner turned confirmations off', async () => {
      const relaxed = await connectTrader(stack, issuer, { guardrails: { requireConfirmation: false }, fundUsd: 100 });
      const res = await me('open_position', { market: 'ETH', side: 'long', marginUsd: 20, leverage: 500 }, relaxed);
      expect(res.status).toBe(200);
      expect(res.body.data!['status']).toBe('filled');
    });
  });

  describe('limits and guardrails', () => {
    let rich: Trader;

    beforeAll(async () => {
      rich = await connectTrader(stack, issuer, { fundUsd: 15_000 });
    });

    it.each([
      [{ maxMarginPerTradeUsd: '50' }, { ...LONG_BTC, marginUsd: 60, leverage: 200 }, 'guardrail of 50 USDC per trade'],
      [{ maxLeverage: 100 }, { ...LONG_BTC, marginUsd: 100, leverage: 101 }, 'guardrail of 100x'],
      [{ allowedMarkets: ['ETH'] as ('BTC' | 'ETH')[] }, LONG_BTC, 'do not allow trading BTC'],
      [{ maxDailyNotionalUsd: '15000' }, { ...LONG_BTC, marginUsd: 20 }, 'daily guardrail'],
    ])('refuses a preview beyond the guardrails %j', async (guardrails, args, says) => {
      const t = await connectTrader(stack, issuer, { guardrails, fundUsd: 1000 });
      const res = await me('preview_trade', args, t);
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('guardrail_exceeded');
      expect(res.body.error!.message).toContain(says);
      expect(res.body.error!.message).toContain('ask the wallet owner');
    });

    it('refuses a second open beyond maxOpenPositions, at preview and at open', async () => {
      const t = await connectTrader(stack, issuer, { guardrails: { maxOpenPositions: 1, requireConfirmation: false }, fundUsd: 1000 });
      expect((await me('open_position', LONG_BTC, t)).status).toBe(200);
      const second = await me('open_position', LONG_BTC, t);
      expect(second.status).toBe(400);
      expect(second.body.error!.code).toBe('guardrail_exceeded');
      expect((await me('preview_trade', LONG_BTC, t)).body.error!.code).toBe('guardrail_exceeded');
    });

    it.each([
      [{ ...LONG_BTC, marginUsd: 9.99 }, 'below the 10 USDC minimum'],
      [{ ...LONG_BTC, leverage: 999 }, 'below the 10,000 USDC minimum'],
      [{ ...LONG_BTC, marginUsd: 20_000, leverage: 1 }, 'more than your available balance of 15,000 USDC'],
      [{ ...LONG_BTC, marginUsd: 10_001, leverage: 1000 }, 'above the 10,000,000 USDC maximum'],
    ])('refuses a trade outside the exchange limits %j', async (args, says) => {
      const res = await me('preview_trade', args, rich);
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('trade_refused');
      expect(res.body.error!.message).toContain(says);
    });
  });

  describe('authentication and sessions', () => {
    it.each([
      ['no token', undefined, 'unauthorized'],
      ['an expired token', { expiresInSeconds: -60 }, 'invalid_token'],
      ['another audience', { audience: 'https://elsewhere.example/api/v1' }, 'invalid_token'],
      ['another issuer', { issuer: 'https://elsewhere.example' }, 'invalid_token'],
      ['a key outside the JWKS', { foreignKey: true }, 'invalid_token'],
    ])('answers 401 with a Bearer challenge for %s', async (_label, mint, code) => {
      const token = mint ? await issuer.mint({ wallet: trader.wallet, sessionKey: trader.sessionKey, ...mint }) : undefined;
      const res = await callTool(base, 'get_account', {}, { family: 'me', token });
      expect(res.status).toBe(401);
      expect(res.body.error!.code).toBe(code);
      const challenge = res.headers.get('www-authenticate')!;
      expect(challenge).toMatch(/^Bearer /);
      if (code === 'invalid_token') expect(challenge).toContain('error="invalid_token"');
    });

    it('answers 401 for a malformed Authorization header', async () => {
      const res = await callTool(base, 'get_account', {}, { family: 'me', headers: { authorization: 'Basic abc' } });
      expect(res.status).toBe(401);
      expect(res.body.error!.code).toBe('invalid_token');
    });

    it('requires trade:read for every tool and trade:write for trading tools (403 insufficient_scope)', async () => {
      const readOnly = await issuer.mint({ wallet: trader.wallet, sessionKey: trader.sessionKey, scope: 'trade:read' });
      const previewRes = await callTool(base, 'preview_trade', LONG_BTC, { token: readOnly });
      expect(previewRes.status).toBe(403);
      expect(previewRes.body.error!.code).toBe('insufficient_scope');
      expect(previewRes.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      expect(previewRes.headers.get('www-authenticate')).toContain('trade:write');
      expect((await callTool(base, 'get_account', {}, { token: readOnly })).status).toBe(200);
      const writeOnly = await issuer.mint({ wallet: trader.wallet, sessionKey: trader.sessionKey, scope: 'trade:write' });
      const account = await callTool(base, 'get_account', {}, { token: writeOnly });
      expect(account.status).toBe(403);
      expect(account.body.error!.code).toBe('insufficient_scope');
      const noScope = await issuer.mint({ wallet: trader.wallet, scope: 'offline_access' });
      expect((await callTool(base, 'get_markets', {}, { token: noScope })).status).toBe(403);
    });

    it('refuses trading without an approved session key (no_trading_session) and tells how to fix it', async () => {
      const noSession = await issuer.mint({ wallet: trader.wallet });
      const res = await callTool(base, 'preview_trade', LONG_BTC, { token: noSession });
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('no_trading_session');
      expect(res.body.error!.message).toMatch(/approve a session key/);
      const revoked = await connectTrader(stack, issuer, { fundUsd: 100 });
      await sql(stack, `UPDATE exchange.session_keys SET revoked_at = now() WHERE address = $1`, [revoked.sessionKey]);
      const after = await me('preview_trade', LONG_BTC, revoked);
      expect(after.body.error!.code).toBe('no_trading_session');
      expect(after.body.error!.message).toContain('revoked');
      const perms = await me('get_trading_permissions', {}, revoked);
      expect(perms.body.data).toMatchObject({ canTrade: false, session: { active: false } });
    });

    it('refuses with wallet_required when a trading call has no connected wallet on the public family', async () => {
      const res = await callTool(base, 'get_portfolio_history', { range: '1h' });
      expect(res.body.error!.code).toBe('wallet_required');
    });
  });

  describe('closing and cancelling', () => {
    it('closes more than 12 positions in several signed intents and reports each settled result', async () => {
      const t = await connectTrader(stack, issuer, { guardrails: { requireConfirmation: false }, fundUsd: 1000 });
      const ids: string[] = [];
      for (let i = 0; i < 13; i += 1) {
        const res = await me('open_position', { ...LONG_BTC, market: i % 2 ? 'ETH' : 'BTC' }, t);
        expect(res.body.data!['status']).toBe('filled');
        ids.push(res.body.data!['position'].positionId);
      }
      const res = await me('close_positions', { positionIds: ids }, t);
      expect(res.status).toBe(200);
      const d = res.body.data!;
      expect(d['intentIds']).toHaveLength(2);
      expect(d['closed']).toBe(13);
      expect(d['results'].map((r: { positionId: string }) => r.positionId).sort()).toEqual([...ids].sort());
      for (const r of d['results']) {
        expect(r.status).toBe('closed');
        expect(typeof r.pnlUsd).toBe('number');
        expect(r.exitPrice).toBeGreaterThan(0);
      }
      const again = await me('close_positions', { positionIds: ids.slice(0, 2) }, t);
      expect(again.body.data!['results'].map((r: { status: string }) => r.status)).toEqual(['skipped', 'skipped']);
    });

    it('closes all positions of one market with all=true and market', async () => {
      const t = await connectTrader(stack, issuer, { guardrails: { requireConfirmation: false }, fundUsd: 1000 });
      await me('open_position', LONG_BTC, t);
      await me('open_position', { ...LONG_BTC, market: 'ETH' }, t);
      const res = await me('close_positions', { all: true, market: 'ETH' }, t);
      expect(res.body.data!['results']).toHaveLength(1);
      expect(res.body.data!['results'][0]).toMatchObject({ market: 'ETH', status: 'closed' });
      const account = await me('get_account', {}, t);
      expect(account.body.data!['positions'].map((p: { market: string }) => p.market)).toEqual(['BTC']);
      const none = await me('close_positions', { all: true, market: 'ETH' }, t);
      expect(none.body.data!['results']).toEqual([]);
      expect(none.body.summary).toContain('no open ETH positions');
    });

    it('refuses positions of another wallet, and unclear requests', async () => {
      const stranger = await me('close_positions', { positionIds: ['999999'] });
      expect(stranger.status).toBe(404);
      expect(stranger.body.error!.code).toBe('not_found');
      for (const args of [{}, { positionIds: ['1'], all: true }, { market: 'BTC' }]) {
        const res = await me('close_positions', args);
        expect(res.status).toBe(400);
        expect(res.body.error!.code).toBe('invalid_arguments');
      }
    });

    it('reports an intent as pending (never failed) when the executor does not answer, and cancels it while queued', async () => {
      const t = await connectTrader(stack, issuer, { guardrails: { requireConfirmation: false }, fundUsd: 1000 });
      await stack.stopApp('trading-executor');
      let restarted = false;
      try {
        const open = await me('open_position', LONG_BTC, t);
        expect(open.status).toBe(200);
        expect(open.body.data).toMatchObject({ status: 'pending', position: null });
        expect(open.body.summary).toMatch(/pending, not failed/);
        const intentId = open.body.data!['intentId'];
        const status = await callTool(base, 'get_intent_status', { intentId });
        expect(status.body.data).toMatchObject({ status: 'queued', pending: true, kind: 'open' });
        const account = await me('get_account', {}, t);
        expect(account.body.data!['pendingIntents']).toEqual([expect.objectContaining({ intentId, kind: 'open', market: 'BTC', marginUsd: 10 })]);
        const cancel = await me('cancel_intent', { intentId }, t);
        expect(cancel.status).toBe(200);
        expect(cancel.body.data).toMatchObject({ intentId, status: 'pending' });
        await stack.restartApp('trading-executor');
        restarted = true;
        const final = await waitFor('the intent to leave the queue', async () => {
          const res = await callTool(base, 'get_intent_status', { intentId });
          return res.body.data && !res.body.data['pending'] ? res.body.data : undefined;
        });
        expect(final).toMatchObject({ status: 'cancelled', pending: false });
        const positions = await sql(stack, `SELECT id FROM exchange.positions WHERE wallet = $1`, [t.wallet]);
        expect(positions).toEqual([]);
      } finally {
        if (!restarted) await stack.restartApp('trading-executor');
      }
    });

    it('refuses to cancel an intent that already executed, and unknown intents', async () => {
      const quoteId = await preview(LONG_BTC);
      const open = await me('open_position', { ...LONG_BTC, quoteId });
      const res = await me('cancel_intent', { intentId: open.body.data!['intentId'] });
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('trade_refused');
      expect(res.body.error!.message).toContain('close the position');
      const unknown = await me('cancel_intent', { intentId: `0x${'cd'.repeat(32)}` });
      expect(unknown.status).toBe(404);
    });
  });
});
