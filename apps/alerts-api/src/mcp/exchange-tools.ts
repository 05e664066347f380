import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { UpstreamClient } from '../upstream/upstream-client.service';
import { fail, looseObject, ok, run } from './tool-result';
import { MARKET_NAMES } from '@paper/markets';

const market = z.enum(MARKET_NAMES);
const wallet = z.string().regex(/^0x[0-9a-fA-F]{40}$/).describe('Wallet address (0x + 40 hex digits)');
const window = z.enum(['24h', '7d', '30d', 'all']);

/** The exchange's public read-only tools, exposed through the same-origin proxy as `exchange_<tool>`. */
const EXCHANGE_TOOLS: { tool: string; title: string; description: string; input: z.ZodRawShape }[] = [
  { tool: 'get_markets', title: 'Markets', description: 'Live markets (BTC, ETH) with mark price, bid/ask, limits and whether each is open.', input: {} },
  {
    tool: 'get_price_chart',
    title: 'Price chart',
    description: 'OHLCV candles and range stats of a market.',
    input: {
      market,
      interval: z.enum(['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '8h', '12h', '1d', '3d', '1w', '1M']).optional(),
      count: z.number().int().min(10).max(500).optional(),
    },
  },
  { tool: 'get_protocol_stats', title: 'Protocol stats', description: 'Protocol analytics and daily history.', input: { days: z.number().int().min(1).max(365).optional() } },
  { tool: 'get_liquidation_map', title: 'Liquidation map', description: 'Liquidation clusters around the current price.', input: { market } },
  {
    tool: 'get_leaderboard',
    title: 'Leaderboard',
    description: 'Trader leaderboard (25 rows per page).',
    input: { window: window.optional(), sortKey: z.string().max(32).optional(), sortDir: z.enum(['asc', 'desc']).optional(), page: z.number().int().min(0).max(1000).optional(), q: z.string().max(64).optional() },
  },
  { tool: 'get_top_trades', title: 'Top trades', description: 'Most profitable positions in a window.', input: { window: window.optional() } },
  { tool: 'get_recent_trades', title: 'Recent trades', description: 'Latest opens, closes and liquidations.', input: { market: market.optional(), wallet: wallet.optional() } },
  { tool: 'get_account', title: 'Account', description: 'Account view of any wallet: balances, open positions with distance to liquidation, stats.', input: { wallet } },
  { tool: 'get_trade_history', title: 'Trade history', description: 'Closed and liquidated positions of a wallet, newest first.', input: { wallet, pages: z.number().int().min(1).max(10).optional() } },
  { tool: 'get_portfolio_history', title: 'Portfolio history', description: 'Equity curve of a wallet.', input: { wallet, range: z.enum(['1h', '1d', '1w', 'all']).optional() } },
];

const envelopeOutput = looseObject({
  ok: z.boolean(),
  summary: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  error: looseObject({ code: z.string(), message: z.string() }).optional(),
});

export function registerExchangeTools(server: McpServer, upstream: UpstreamClient): void {
  for (const def of EXCHANGE_TOOLS) {
    server.registerTool(
      `exchange_${def.tool}`,
      {
        title: def.title,
        description: `${def.description} Read-only, from the exchange tool API (no token needed).`,
        inputSchema: def.input,
        outputSchema: envelopeOutput,
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      (args: Record<string, unknown>) =>
        run(async () => {
          const envelope = await upstream.callTool(def.tool, args);
          if (envelope['ok'] !== true) {
            const error = (envelope['error'] ?? {}) as { code?: string; message?: string };
            return { ...fail(error.code ?? 'upstream_error', error.message ?? 'The exchange API refused the request.'), structuredContent: envelope };
          }
          return ok(envelope);
        }),
    );
  }
}
