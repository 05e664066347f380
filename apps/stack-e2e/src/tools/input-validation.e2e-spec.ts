import { type TestStack, startTestStack } from '@paper/dev-stack';
import { TOOL_CATALOG, findTool } from '@paper/contracts';
import { type BoundCase, badCases, boundCases, enumCases } from './input-cases';
import { TRADING_APPS, type CallResult, type Trader, callTool, connectTrader, waitForPrices } from './tool-test-kit';
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
  calculate_position: {
    market: 'BTC',
    side: 'long',
    marginUsd: 100,
    leverage: 100,
    entryPrice: 100000,
    exitPrice: 101000,
  },
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

/** Each case on the families its tool is served on: public tools on both, trading tools on /me only. */
function withFamilies(cases: BoundCase[]): [string, 'public' | 'me', BoundCase][] {
  return cases.flatMap((c) => {
    const families = findTool(c.tool)!.family === 'public' ? (['public', 'me'] as const) : (['me'] as const);
    return families.map((family): [string, 'public' | 'me', BoundCase] => [`${c.tool} ${c.label}`, family, c]);
  });
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

/** Connected wallets the /me calls take turns with: each wallet's own rate limit stays at its default. */
const TRADERS = 8;

describe('tool API: input validation from the catalog schemas', () => {
  let stack: TestStack;
  let issuer: TestIssuer;
  let traders: Trader[];
  let turn = 0;
  let base: string;
  /** The token of the next connected wallet. */
  const meToken = () => traders[turn++ % TRADERS]!.token;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    stack = await startTestStack({
      apps: [...TRADING_APPS],
      // Many candle requests (every interval on both families): keep the venue's weight budget out of the way.
      env: {
        OAUTH_JWKS_URL: issuer.jwksUrl,
        SIM_WEIGHT_PER_MINUTE: '100000',
        UPSTREAM_WEIGHT_PER_MINUTE: '100000',
      },
    });
    base = stack.baseUrl;
    issuer.bind(base);
    await waitForPrices(base);
    traders = await Promise.all(Array.from({ length: TRADERS }, () => connectTrader(stack, issuer, { fundUsd: 100 })));
  });

  afterAll(async () => {
    await stack?.stop();
    await issuer?.stop();
  });

  /** Inside a bound: accepted (200 for the read tools; trading tools may still be refused by business rules). Outside: 400 invalid_arguments. */
  const expectBoundAnswer = async (c: BoundCase, family: 'public' | 'me'): Promise<CallResult> => {
    const res = await callTool(base, c.tool, c.args, { family, token: family === 'me' ? meToken() : undefined });
    if (c.inside) {
      expect(res.status).toBeLessThan(500);
      expect(['invalid_arguments', 'unknown_parameter']).not.toContain(res.body.error?.code);
      if (findTool(c.tool)!.family === 'public')
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 200, error: undefined });
    } else {
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe('invalid_arguments');
    }
    return res;
  };

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

    it.each(withFamilies(cases))('%s on the %s family', async (_label, family, c) => expectBoundAnswer(c, family));
  });

  describe('every value of every enumeration is accepted, on both families', () => {
    // close_positions takes `market` only together with all=true.
    const cases = enumCases({ ...VALID, close_positions: { all: true } });

    it('covers the 14 intervals of get_price_chart and the 4 ranges of get_portfolio_history', () => {
      const labels = cases.map((c) => `${c.tool} ${c.label}`);
      expect(labels.filter((l) => l.startsWith('get_price_chart interval'))).toHaveLength(14);
      expect(labels.filter((l) => l.startsWith('get_portfolio_history range'))).toEqual(
        ['1h', '1d', '1w', 'all'].map((r) => `get_portfolio_history range = ${r}`),
      );
    });

    it.each(withFamilies(cases))('%s on the %s family', async (_label, family, c) => {
      const res = await expectBoundAnswer(c, family);
      if (c.tool === 'get_price_chart') expect(res.body.data!['candles']).toHaveLength(c.args['count'] as number);
    });

    it.each([
      ['1M', 30],
      ['1w', 140],
      ['3d', 300],
    ])(
      'get_price_chart returns %s candles to the count asked (%i), as far back as the venue has them',
      async (interval, count) => {
        const res = await callTool(base, 'get_price_chart', { market: 'ETH', interval, count }, { token: meToken() });
        expect(res.status).toBe(200);
        expect(res.body.data!['candles']).toHaveLength(count);
        const times = (res.body.data!['candles'] as { time: number }[]).map((c) => c.time);
        expect([...times].sort((a, b) => a - b)).toEqual(times);
        expect(new Set(times).size).toBe(count);
      },
    );
  });

  describe('generated bad-input sweep', () => {
    it.each(TOOL_CATALOG.map((t) => t.name))(
      '%s: every bad JSON argument is a 4xx envelope, never a 5xx',
      async (name) => {
        const cases = badCases(VALID, 'json').filter((c) => c.tool === name);
        expect(cases.length).toBeGreaterThanOrEqual(2);
        const families = findTool(name)!.family === 'public' ? [{}, { token: meToken() }] : [{ token: meToken() }];
        await inBatches(cases, 8, async (c) => {
          for (const f of families)
            expectClientError(
              await callTool(base, name, c.args as Record<string, unknown>, f),
              `${name} POST ${c.label}`,
            );
        });
      },
    );

    it.each(TOOL_CATALOG.map((t) => t.name))(
      '%s: every bad query-string argument is a 4xx envelope, never a 5xx',
      async (name) => {
        const cases = badCases(VALID, 'query').filter((c) => c.tool === name);
        const families = findTool(name)!.family === 'public' ? [{}, { token: meToken() }] : [{ token: meToken() }];
        await inBatches(cases, 8, async (c) => {
          for (const f of families)
            expectClientError(
              await callTool(base, name, c.args as Record<string, unknown>, { ...f, method: 'GET' }),
              `${name} GET ${c.label}`,
            );
        });
      },
    );

    it.each(TOOL_CATALOG.map((t) => t.name))(
      '%s: bodies that are not a JSON object are refused with 4xx',
      async (name) => {
        const bodies = [
          '[]',
          '"text"',
          '42',
          'true',
          'null',
          '{"a":',
          '{"a":1e999}',
          `{"x":"${'y'.repeat(300_000)}"}`,
          '\u0000',
        ];
        for (const rawBody of bodies) {
          expectClientError(
            await callTool(base, name, undefined, {
              ...familyOf(name),
              token: familyOf(name).family ? meToken() : undefined,
              rawBody,
            }),
            `${name} body ${rawBody.slice(0, 20)}`,
          );
        }
        expectClientError(
          await callTool(base, name, undefined, {
            ...familyOf(name),
            token: familyOf(name).family ? meToken() : undefined,
            rawBody: 'a=1',
            contentType: 'text/plain',
          }),
          `${name} text body`,
        );
      },
    );
  });
});
