import { type TestStack, startTestStack } from '@paper/dev-stack';
import { Redis } from 'ioredis';
import {
  type CallResult,
  REDIS_URL,
  TRADING_APPS,
  type Trader,
  callTool,
  connectTrader,
  waitForPrices,
} from './tool-test-kit';
import { type TestIssuer, startTestIssuer } from './token-issuer';

export const LONG_BTC = { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1000 } as const;

/** A running trading stack with a connected, funded trader (filled in by the suite's beforeAll). */
export interface TradingSuite {
  stack: TestStack;
  issuer: TestIssuer;
  trader: Trader;
  base: string;
  redis: Redis;
  /** A tool on /me as `t` (default: the suite's trader). */
  me(name: string, args: Record<string, unknown> | undefined, t?: Trader): Promise<CallResult>;
  /** preview_trade that must succeed; its quoteId. */
  preview(args: Record<string, unknown>, t?: Trader): Promise<string>;
  /** The stored quote hash (Redis). */
  quote(quoteId: string): Promise<Record<string, string>>;
}

/**
 * Registers beforeAll/afterAll hooks that start venue-sim, trading-executor and tools-gateway (with a test
 * token issuer and no rate limits), wait for live prices and connect a trader funded with 10,000 USDC.
 */
export function useTradingSuite(env: Record<string, string> = {}): TradingSuite {
  const suite = {
    me: (name, args, t) => callTool(suite.base, name, args, { token: (t ?? suite.trader).token }),
    preview: async (args, t) => {
      const res = await suite.me('preview_trade', args, t);
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 200, error: undefined });
      return res.body.data!['quoteId'] as string;
    },
    quote: (quoteId) => suite.redis.hgetall(`${suite.stack.redisPrefix}:quotes:${quoteId}`),
  } as TradingSuite;

  beforeAll(async () => {
    suite.issuer = await startTestIssuer();
    suite.stack = await startTestStack({
      apps: [...TRADING_APPS],
      env: { OAUTH_JWKS_URL: suite.issuer.jwksUrl, ...env },
    });
    suite.base = suite.stack.baseUrl;
    suite.issuer.bind(suite.base);
    suite.redis = new Redis(REDIS_URL);
    await waitForPrices(suite.base);
    suite.trader = await connectTrader(suite.stack, suite.issuer);
  });

  afterAll(async () => {
    suite.redis?.disconnect();
    await suite.stack?.stop();
    await suite.issuer?.stop();
  });

  return suite;
}
