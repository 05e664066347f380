import { TOOL_VIEWS, toolViewUri } from './tool-definition';
import { TOOL_CATALOG, findTool, publicTools, toolJsonSchema, tradingTools } from './tool-catalog';

const input = (name: string) => findTool(name)!.inputSchema;

describe('the tool catalog', () => {
  it('has 19 uniquely named tools: 15 on both families, 4 trading tools only on /me', () => {
    expect(TOOL_CATALOG).toHaveLength(19);
    expect(new Set(TOOL_CATALOG.map((t) => t.name)).size).toBe(19);
    expect(publicTools()).toHaveLength(15);
    expect(tradingTools().map((t) => t.name)).toEqual([
      'preview_trade',
      'open_position',
      'close_positions',
      'cancel_intent',
    ]);
    for (const tool of tradingTools()) expect(tool.scope).toBe('trade:write');
    for (const tool of publicTools()) expect(tool.scope).toBe('trade:read');
  });

  it('names the interactive view of four tools, each view drawn for exactly one tool', () => {
    const views = Object.fromEntries(TOOL_CATALOG.filter((t) => t.view).map((t) => [t.name, t.view]));
    expect(views).toEqual({
      get_price_chart: 'price-chart',
      get_liquidation_map: 'liquidation-map',
      get_account: 'account',
      preview_trade: 'trade-ticket',
    });
    expect(Object.values(views).sort()).toEqual([...TOOL_VIEWS].sort());
    expect(toolViewUri('trade-ticket')).toBe('ui://paper-perps/trade-ticket');
  });

  it('refuses unknown parameters on every tool (strict input objects)', () => {
    for (const tool of TOOL_CATALOG) {
      expect(tool.inputSchema.safeParse({ surprise: 1 }).success).toBe(false);
      expect(toolJsonSchema(tool, 'input')['additionalProperties']).toBe(false);
    }
  });

  it('lets result data carry additional properties and describes every field', () => {
    for (const tool of TOOL_CATALOG) {
      const schema = toolJsonSchema(tool, 'output');
      expect(schema['type']).toBe('object');
      expect(schema['additionalProperties']).toEqual({});
      expect(schema['$schema']).toBeUndefined();
    }
  });

  it('flags only open_position and close_positions as destructive; read tools as read-only', () => {
    const destructive = TOOL_CATALOG.filter((t) => t.annotations.destructiveHint).map((t) => t.name);
    expect(destructive).toEqual(['open_position', 'close_positions']);
    for (const tool of publicTools()) expect(tool.annotations.readOnlyHint).toBe(true);
    expect(findTool('open_position')!.description).toMatch(/confirmation/);
    expect(findTool('close_positions')!.description).toMatch(/confirmation/);
    expect(findTool('preview_trade')!.description).toMatch(/3 minutes/);
  });

  it.each([
    ['get_price_chart', { market: 'BTC', count: 10 }, { market: 'BTC', count: 9 }],
    ['get_price_chart', { market: 'ETH', count: 500 }, { market: 'ETH', count: 501 }],
    ['get_price_chart', { market: 'BTC', interval: '1M' }, { market: 'BTC', interval: '2m' }],
    ['get_protocol_stats', { days: 1 }, { days: 0 }],
    ['get_protocol_stats', { days: 365 }, { days: 366 }],
    ['get_leaderboard', { page: 1000 }, { page: 1001 }],
    ['get_leaderboard', { page: 0 }, { page: -1 }],
    ['get_leaderboard', { q: 'x'.repeat(64) }, { q: 'x'.repeat(65) }],
    ['get_trade_history', { pages: 10 }, { pages: 11 }],
    ['get_trade_history', { pages: 1 }, { pages: 0 }],
    [
      'calculate_position',
      { market: 'BTC', side: 'long', marginUsd: 0.000001, leverage: 1000 },
      { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1001 },
    ],
    [
      'calculate_position',
      { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1 },
      { market: 'BTC', side: 'long', marginUsd: 0, leverage: 1 },
    ],
    [
      'calculate_position',
      { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1 },
      { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1.5 },
    ],
    [
      'calculate_position',
      { market: 'BTC', side: 'long', marginUsd: 10_000_000, leverage: 1 },
      { market: 'BTC', side: 'long', marginUsd: 1e308, leverage: 1 },
    ],
    [
      'calculate_position',
      { market: 'BTC', side: 'long', marginUsd: 12.123456, leverage: 1 },
      { market: 'BTC', side: 'long', marginUsd: 12.1234567, leverage: 1 },
    ],
    [
      'calculate_position',
      { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1 },
      { market: 'BTC', side: 'long', marginUsd: 1e-7, leverage: 1 },
    ],
    [
      'calculate_position',
      { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1, exitPrice: 1e8 },
      { market: 'BTC', side: 'long', marginUsd: 10, leverage: 1, exitPrice: 1e9 },
    ],
    [
      'preview_trade',
      { market: 'ETH', side: 'short', marginUsd: 10.5, leverage: 2 },
      { market: 'ETH', side: 'short', marginUsd: 10.0000001, leverage: 2 },
    ],
    [
      'close_positions',
      { positionIds: Array.from({ length: 120 }, (_, i) => String(i + 1)) },
      { positionIds: Array.from({ length: 121 }, (_, i) => String(i + 1)) },
    ],
    ['get_account', { wallet: `0x${'a'.repeat(40)}` }, { wallet: `0x${'a'.repeat(39)}` }],
    ['get_intent_status', { intentId: `0x${'b'.repeat(64)}` }, { intentId: '0x12' }],
  ])('%s accepts %j and refuses %j', (name, inside, outside) => {
    expect(input(name).safeParse(inside).success).toBe(true);
    expect(input(name).safeParse(outside).success).toBe(false);
  });

  it('applies the documented defaults', () => {
    expect(input('get_price_chart').parse({ market: 'BTC' })).toEqual({ market: 'BTC', interval: '15m', count: 96 });
    expect(input('get_protocol_stats').parse({})).toEqual({ days: 14 });
    expect(input('get_leaderboard').parse({})).toEqual({ window: '24h', sortKey: 'rank', sortDir: 'asc', page: 0 });
    expect(input('get_top_trades').parse({})).toEqual({ window: '24h' });
    expect(input('get_trade_history').parse({})).toEqual({ pages: 1 });
    expect(input('get_portfolio_history').parse({})).toEqual({ range: '1d' });
  });

  it('keeps defaults out of the required list of the input JSON schema', () => {
    const schema = toolJsonSchema(findTool('get_price_chart')!, 'input');
    expect(schema['required']).toEqual(['market']);
    expect((schema['properties'] as Record<string, { default?: unknown }>)['count']!.default).toBe(96);
  });
});
