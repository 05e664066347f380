import { expectValidData } from './output-schemas';
import { type Trader, callTool, connectTrader, sql } from './tool-test-kit';
import { LONG_BTC, useTradingSuite } from './trading-suite';

describe('tool API: trading tools over HTTP', () => {
  const suite = useTradingSuite();

  describe('preview and open', () => {
    it('previews a trade with a quote valid for 3 minutes, bust price and scenarios', async () => {
      const res = await suite.me('preview_trade', { market: 'ETH', side: 'short', marginUsd: 100, leverage: 100 });
      const d = res.body.data!;
      expectValidData('preview_trade', d);
      expect(d['quoteId']).toMatch(/^q_[0-9a-f]{32}$/);
      expect(d['validForSeconds']).toBeGreaterThanOrEqual(179);
      expect(Date.parse(d['expiresAt']) - Date.now()).toBeGreaterThan(170_000);
      expect(Date.parse(d['expiresAt']) - Date.now()).toBeLessThanOrEqual(180_000);
      expect(d).toMatchObject({
        market: 'ETH',
        side: 'short',
        marginUsd: 100,
        leverage: 100,
        notionalUsd: 10000,
        confirmationRequired: true,
      });
      expect(d['bustPrice']).toBeGreaterThan(d['estimatedEntryPrice']);
      expect(d['scenarios'].map((s: { label: string }) => s.label)).toEqual(['-5%', '-1%', '+1%', '+5%', 'bust']);
      expect(d['scenarios'].at(-1)).toMatchObject({ liquidated: true, pnlUsd: -100 });
      expect(res.body.summary).toContain(d['quoteId']);
      const stored = await suite.quote(d['quoteId']);
      expect(stored).toMatchObject({
        wallet: suite.trader.wallet,
        market: 'ETH',
        side: 'short',
        marginMicro: '100000000',
        leverage: '100',
      });
    });

    it('opens with a matching quote, reports the fill, and refuses to reuse the quote', async () => {
      const quoteId = await suite.preview(LONG_BTC);
      const res = await suite.me('open_position', { ...LONG_BTC, quoteId });
      expect(res.status).toBe(200);
      expectValidData('open_position', res.body.data);
      expect(res.body.data!['status']).toBe('filled');
      expect(res.body.data!['intentId']).toMatch(/^0x[0-9a-f]{64}$/);
      expect(res.body.data!['position']).toMatchObject({
        market: 'BTC',
        side: 'long',
        marginUsd: 10,
        leverage: 1000,
        notionalUsd: 10000,
      });
      expect(res.body.data!['position'].positionId).toMatch(/^\d+$/);
      expect(res.body.summary).toContain('Opened long BTC');
      const again = await suite.me('open_position', { ...LONG_BTC, quoteId });
      expect(again.status).toBe(400);
      expect(again.body.error!.code).toBe('quote_used');
      const status = await callTool(suite.base, 'get_intent_status', { intentId: res.body.data!['intentId'] });
      expect(status.body.data).toMatchObject({
        status: 'executed',
        positionIds: [res.body.data!['position'].positionId],
      });
    });

    it('requires a quote when the owner enabled confirmations', async () => {
      const res = await suite.me('open_position', LONG_BTC);
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
      const quoteId = await suite.preview(LONG_BTC);
      const res = await suite.me('open_position', { ...LONG_BTC, ...change, quoteId });
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('quote_mismatch');
      expect(res.body.error!.message).toContain(says);
      const stored = await suite.quote(quoteId);
      expect(stored['usedAt']).toBeUndefined();
    });

    it('refuses an expired quote', async () => {
      const quoteId = await suite.preview(LONG_BTC);
      await suite.redis.hset(`${suite.stack.redisPrefix}:quotes:${quoteId}`, 'expiresAt', String(Date.now() - 1));
      const res = await suite.me('open_position', { ...LONG_BTC, quoteId });
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('quote_expired');
      expect(res.body.error!.message).toContain('preview_trade');
    });

    it('refuses unknown quotes and quotes of another wallet', async () => {
      const unknown = await suite.me('open_position', { ...LONG_BTC, quoteId: `q_${'0'.repeat(32)}` });
      expect(unknown.body.error!.code).toBe('quote_not_found');
      const other = await connectTrader(suite.stack, suite.issuer, { fundUsd: 100 });
      const theirs = await suite.preview(LONG_BTC, other);
      const res = await suite.me('open_position', { ...LONG_BTC, quoteId: theirs });
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('quote_not_found');
    });

    it('opens without a quote when the owner turned confirmations off', async () => {
      const relaxed = await connectTrader(suite.stack, suite.issuer, {
        guardrails: { requireConfirmation: false },
        fundUsd: 100,
      });
      const res = await suite.me(
        'open_position',
        { market: 'ETH', side: 'long', marginUsd: 20, leverage: 500 },
        relaxed,
      );
      expect(res.status).toBe(200);
      expect(res.body.data!['status']).toBe('filled');
    });
  });

  describe('limits and guardrails', () => {
    let rich: Trader;

    beforeAll(async () => {
      rich = await connectTrader(suite.stack, suite.issuer, { fundUsd: 15_000 });
    });

    it.each([
      [{ maxMarginPerTradeUsd: '50' }, { ...LONG_BTC, marginUsd: 60, leverage: 200 }, 'guardrail of 50 USDC per trade'],
      [{ maxLeverage: 100 }, { ...LONG_BTC, marginUsd: 100, leverage: 101 }, 'guardrail of 100x'],
      [{ allowedMarkets: ['ETH'] as ('BTC' | 'ETH')[] }, LONG_BTC, 'do not allow trading BTC'],
      [{ maxDailyNotionalUsd: '15000' }, { ...LONG_BTC, marginUsd: 20 }, 'daily guardrail'],
    ])('refuses a preview beyond the guardrails %j', async (guardrails, args, says) => {
      const t = await connectTrader(suite.stack, suite.issuer, { guardrails, fundUsd: 1000 });
      const res = await suite.me('preview_trade', args, t);
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('guardrail_exceeded');
      expect(res.body.error!.message).toContain(says);
      expect(res.body.error!.message).toContain('ask the wallet owner');
    });

    it('refuses a second open beyond maxOpenPositions, at preview and at open', async () => {
      const t = await connectTrader(suite.stack, suite.issuer, {
        guardrails: { maxOpenPositions: 1, requireConfirmation: false },
        fundUsd: 1000,
      });
      expect((await suite.me('open_position', LONG_BTC, t)).status).toBe(200);
      const second = await suite.me('open_position', LONG_BTC, t);
      expect(second.status).toBe(400);
      expect(second.body.error!.code).toBe('guardrail_exceeded');
      expect((await suite.me('preview_trade', LONG_BTC, t)).body.error!.code).toBe('guardrail_exceeded');
    });

    it.each([
      [{ ...LONG_BTC, marginUsd: 9.99 }, 'below the 10 USDC minimum'],
      [{ ...LONG_BTC, leverage: 999 }, 'below the 10,000 USDC minimum'],
      [{ ...LONG_BTC, marginUsd: 20_000, leverage: 1 }, 'more than your available balance of 15,000 USDC'],
      [{ ...LONG_BTC, marginUsd: 10_001, leverage: 1000 }, 'above the 10,000,000 USDC maximum'],
    ])('refuses a trade outside the exchange limits %j', async (args, says) => {
      const res = await suite.me('preview_trade', args, rich);
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
      ['another suite.issuer', { issuer: 'https://elsewhere.example' }, 'invalid_token'],
      ['a key outside the JWKS', { foreignKey: true }, 'invalid_token'],
    ])('answers 401 with a Bearer challenge for %s', async (_label, mint, code) => {
      const token = mint
        ? await suite.issuer.mint({ wallet: suite.trader.wallet, sessionKey: suite.trader.sessionKey, ...mint })
        : undefined;
      const res = await callTool(suite.base, 'get_account', {}, { family: 'me', token });
      expect(res.status).toBe(401);
      expect(res.body.error!.code).toBe(code);
      const challenge = res.headers.get('www-authenticate')!;
      expect(challenge).toMatch(/^Bearer /);
      if (code === 'invalid_token') expect(challenge).toContain('error="invalid_token"');
    });

    it('answers 401 for a malformed Authorization header', async () => {
      const res = await callTool(
        suite.base,
        'get_account',
        {},
        { family: 'me', headers: { authorization: 'Basic abc' } },
      );
      expect(res.status).toBe(401);
      expect(res.body.error!.code).toBe('invalid_token');
    });

    it('requires trade:read for every tool and trade:write for trading tools (403 insufficient_scope)', async () => {
      const readOnly = await suite.issuer.mint({
        wallet: suite.trader.wallet,
        sessionKey: suite.trader.sessionKey,
        scope: 'trade:read',
      });
      const previewRes = await callTool(suite.base, 'preview_trade', LONG_BTC, { token: readOnly });
      expect(previewRes.status).toBe(403);
      expect(previewRes.body.error!.code).toBe('insufficient_scope');
      expect(previewRes.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      expect(previewRes.headers.get('www-authenticate')).toContain('trade:write');
      expect((await callTool(suite.base, 'get_account', {}, { token: readOnly })).status).toBe(200);
      const writeOnly = await suite.issuer.mint({
        wallet: suite.trader.wallet,
        sessionKey: suite.trader.sessionKey,
        scope: 'trade:write',
      });
      const account = await callTool(suite.base, 'get_account', {}, { token: writeOnly });
      expect(account.status).toBe(403);
      expect(account.body.error!.code).toBe('insufficient_scope');
      const noScope = await suite.issuer.mint({ wallet: suite.trader.wallet, scope: 'offline_access' });
      expect((await callTool(suite.base, 'get_markets', {}, { token: noScope })).status).toBe(403);
    });

    it('requires trade:read for GET /api/v1/me too (403 insufficient_scope)', async () => {
      const getMe = (token: string) =>
        fetch(`${suite.base}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      for (const scope of ['trade:write', 'offline_access']) {
        const res = await getMe(
          await suite.issuer.mint({ wallet: suite.trader.wallet, sessionKey: suite.trader.sessionKey, scope }),
        );
        expect(res.status).toBe(403);
        expect(res.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="trade:read"/);
        expect(await res.json()).toEqual({
          ok: false,
          error: { code: 'insufficient_scope', message: expect.stringContaining('trade:read') },
        });
      }
      const readOnly = await getMe(
        await suite.issuer.mint({
          wallet: suite.trader.wallet,
          sessionKey: suite.trader.sessionKey,
          scope: 'trade:read',
        }),
      );
      expect(readOnly.status).toBe(200);
      expect(((await readOnly.json()) as { data: { canTrade: boolean } }).data.canTrade).toBe(false);
    });

    it('refuses trading without an approved session key (no_trading_session) and tells how to fix it', async () => {
      const noSession = await suite.issuer.mint({ wallet: suite.trader.wallet });
      const res = await callTool(suite.base, 'preview_trade', LONG_BTC, { token: noSession });
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('no_trading_session');
      expect(res.body.error!.message).toMatch(/approve a session key/);
      const revoked = await connectTrader(suite.stack, suite.issuer, { fundUsd: 100 });
      await sql(suite.stack, `UPDATE exchange.session_keys SET revoked_at = now() WHERE address = $1`, [
        revoked.sessionKey,
      ]);
      const after = await suite.me('preview_trade', LONG_BTC, revoked);
      expect(after.body.error!.code).toBe('no_trading_session');
      expect(after.body.error!.message).toContain('revoked');
      const perms = await suite.me('get_trading_permissions', {}, revoked);
      expect(perms.body.data).toMatchObject({ canTrade: false, session: { active: false } });
    });

    it('refuses with wallet_required when a trading call has no connected wallet on the public family', async () => {
      const res = await callTool(suite.base, 'get_portfolio_history', { range: '1h' });
      expect(res.body.error!.code).toBe('wallet_required');
    });
  });
});
