import { type TestStack, startTestStack } from '@paper/dev-stack';
import { TOOL_CATALOG, findTool } from '@paper/contracts';
import { badCases, boundCases } from './input-cases';
import { NO_RATE_LIMITS, TRADING_APPS, type CallResult, type Trader, callTool, connectTrader, waitForPrices } from './tool-test-kit';
import { type TestIssuer, startTestIssuer } from './token-issuer';

const WALLET = `0x${'1234567890'.repeat(4)}`;
const INTENT = `0x${'ab'.repeat(32)}`;

/** Arguments with which every tool passes validation. */
const VALID: Record<string, Record<string, unknown>> = {
  get_markets: {},
  get_price_chart: { market: 'BTC', interval: '1h', count: 10 },
  get_protocol_stats: { days: 2 },
  get_liquidation_map: { market: 'ETH' },
  get_leaderboard: { window: '7d', sortKey: 'totalVolume', sortDir: 'desc', page: 0, q: 'ab' },
  get_top_trades: { window: '30d' },
  get_recent_trades: { market: 'BTC', wallet: WALLET },
  get_account: { wallet: WALLET },
  get_trade_history: { wallet: WALLET, pages: 2 },
  get_portfolio_history: { wallet: WALLET, range: '1w' },
  calculate_position: { market: 'BTC', side: 'long', marginUsd: 100, leverage: 100, entryPrice: 100000, exitPrice: 101000 },
  get_deposit_info: { wallet: WALLET },
  get_trading_permissions: {},
  get_intent_status: { intentId: INTENT },
  preview_trade: { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1000 },
  open_position: { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1000, quoteId: `q_${'0'.repeat(32)}` },
  close_positions: { positionIds: ['1'] },
  cancel_intent: { intentId: INTENT },
};

function expectClientError(res: CallResult, what: string): void {
  const failure = `${what} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
  expect({ failure, clientError: res.status >= 400 && res.status < 500 }).toEqual({ failure, clientError: true });
  expect(res.body.ok).toBe(false);
  expect(typeof res.body.error?.code).toBe('string');
  expect(res.body.error!.code.length).toBeGreaterThan(0);
  expect(res.body.error!.message.length).toBeGreaterThan(10);
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

describe('tool API: input validation from the catalog schemas', () => {
  let stack: TestStack;
  let issuer: TestIssuer;
  let trader: Trader;
  let base: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    stack = await startTestStack({ apps: [...TRADING_APPS], env: { OAUTH_JWKS_URL: issuer.jwksUrl, ...NO_RATE_LIMITS } });
    base = stack.baseUrl;
    issuer.bind(base);
    await waitForPrices(base);
    trader = await connectTrader(stack, issuer, { fundUsd: 100 });
  });

  afterAll(async () => {
    await stack?.stop();
    await issuer?.stop();
  });

  const familyOf = (tool: string) => (findTool(tool)!.family === 'public' ? {} : { family: 'me' as const });

  describe('bounds, just inside and just outside', () => {
    const cases = boundCases(VALID);

    it('covers every documented bound', () => {
      const labels = cases.map((c) => `${c.tool} ${c.label}`);
      for (const expected of [
        'get_price_chart count = minimum 10',
        'get_price_chart count > maximum 500',
        'get_protocol_stats days < minimum 1',
        'get_protocol_stats days > maximum 365',
        'get_leaderboard page > maximum 1000',
        'get_leaderboard q of 65 characters',
        'get_trade_history pages > maximum 10',
        'calculate_position marginUsd = exclusive minimum 0',
        'calculate_position leverage > maximum 1000',
        'calculate_position entryPrice just above 0',
        'preview_trade leverage < minimum 1',
        'open_position marginUsd = exclusive minimum 0',
        'close_positions positionIds with 121 items',
      ]) {
        expect(labels).toContain(expected);
      }
    });

    it.each(cases.map((c) => [`${c.tool} ${c.label}`, c] as const))('%s', async (_label, c) => {
      const token = findTool(c.tool)!.family === 'public' ? undefined : trader.token;
      const res = await callTool(base, c.tool, c.args, { token });
      if (c.inside) {
        expect(res.status).toBeLessThan(500);
        expect(['invalid_arguments', 'unknown_parameter']).not.toContain(res.body.error?.code);
        if (!token) expect(res.status).toBe(200);
      } else {
        expect(res.status).toBe(400);
        expect(res.body.error!.code).toBe('invalid_arguments');
      }
    });
  });

  describe('generated bad-input sweep', () => {
    it.each(TOOL_CATALOG.map((t) => t.name))('%s: every bad JSON argument is a 4xx envelope, never a 5xx', async (name) => {
      const cases = badCases(VALID, 'json').filter((c) => c.tool === name);
      expect(cases.length).toBeGreaterThanOrEqual(2);
      const families = findTool(name)!.family === 'public' ? [{}, { token: trader.token }] : [{ token: trader.token }];
      await inBatches(cases, 8, async (c) => {
        for (const f of families) expectClientError(await callTool(base, name, c.args as Record<string, unknown>, f), `${name} POST ${c.label}`);
      });
    });

    it.each(TOOL_CATALOG.map((t) => t.name))('%s: every bad query-string argument is a 4xx envelope, never a 5xx', async (name) => {
      const cases = badCases(VALID, 'query').filter((c) => c.tool === name);
      const families = findTool(name)!.family === 'public' ? [{}, { token: trader.token }] : [{ token: trader.token }];
      await inBatches(cases, 8, async (c) => {
        for (const f of families) expectClientError(await callTool(base, name, c.args as Record<string, unknown>, { ...f, method: 'GET' }), `${name} GET ${c.label}`);
      });
    });

    it.each(TOOL_CATALOG.map((t) => t.name))('%s: bodies that are not a JSON object are refused with 4xx', async (name) => {
      const bodies = ['[]', '"text"', '42', 'true', 'null', '{"a":', '{"a":1e999}', `{"x":"${'y'.repeat(300_000)}"}`, '\u0000'];
      for (const rawBody of bodies) {
        expectClientError(await callTool(base, name, undefined, { ...familyOf(name), token: familyOf(name).family ? trader.token : undefined, rawBody }), `${name} body ${rawBody.slice(0, 20)}`);
      }
      expectClientError(await callTool(base, name, undefined, { ...familyOf(name), token: familyOf(name).family ? trader.token : undefined, rawBody: 'a=1', contentType: 'text/plain' }), `${name} text body`);
    });
  });
});
