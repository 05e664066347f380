import { ListToolsResultSchema } from '@modelcontextprotocol/core';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { TOOL_CATALOG } from '@paper/contracts';
import { buildMcpToolListing } from './mcp-tool-listing';

type Schema = {
  type?: string;
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties?: unknown;
};

describe('MCP tool listing', () => {
  const listing = buildMcpToolListing();
  const byName = new Map(listing.tools.map((t) => [t.name, t]));
  const input = (name: string) => byName.get(name)!.inputSchema as Schema;

  it('lists the 19 catalog tools in catalog order with the same names, titles and descriptions', () => {
    expect(listing.tools).toHaveLength(19);
    expect(listing.tools.map((t) => t.name)).toEqual(TOOL_CATALOG.map((t) => t.name));
    for (const tool of TOOL_CATALOG) {
      expect(byName.get(tool.name)).toMatchObject({ title: tool.title, description: tool.description });
    }
  });

  it('is a valid tools/list result for the SDK', () => {
    const parsed = ListToolsResultSchema.parse(listing);
    expect(parsed.tools).toHaveLength(19);
    for (const tool of parsed.tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
  });

  it('carries the contract bounds, defaults and required parameters in the input schemas', () => {
    expect(input('get_price_chart').required).toEqual(['market']);
    expect(input('get_price_chart').properties!['count']).toMatchObject({
      type: 'integer',
      minimum: 10,
      maximum: 500,
      default: 96,
    });
    expect(input('get_price_chart').properties!['interval']).toMatchObject({
      default: '15m',
      enum: expect.arrayContaining(['1m', '1M']),
    });
    expect(input('get_protocol_stats').properties!['days']).toMatchObject({ minimum: 1, maximum: 365, default: 14 });
    expect(input('get_leaderboard').properties!['q']).toMatchObject({ type: 'string', maxLength: 64 });
    expect(input('get_leaderboard').properties!['page']).toMatchObject({ minimum: 0, maximum: 1000, default: 0 });
    expect(input('get_trade_history').properties!['pages']).toMatchObject({ minimum: 1, maximum: 10, default: 1 });
    expect(input('calculate_position').required).toEqual(['market', 'side', 'marginUsd', 'leverage']);
    expect(input('calculate_position').properties!['marginUsd']).toMatchObject({ type: 'number', exclusiveMinimum: 0 });
    expect(input('open_position').properties!['leverage']).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 1000,
    });
    expect(input('open_position').properties!['quoteId']).toMatchObject({ type: 'string' });
    expect(input('close_positions').properties!['positionIds']).toMatchObject({ type: 'array', maxItems: 120 });
    for (const tool of listing.tools) expect((tool.inputSchema as Schema).additionalProperties).toBe(false);
  });

  it('marks read tools read-only and the two consequential trading tools destructive', () => {
    const readOnly = listing.tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    expect(readOnly).toEqual(
      TOOL_CATALOG.filter((t) => t.family === 'public')
        .map((t) => t.name)
        .concat('preview_trade'),
    );
    for (const name of ['open_position', 'close_positions']) {
      expect(byName.get(name)!.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        title: byName.get(name)!.title,
      });
    }
    expect(listing.tools.filter((t) => t.annotations?.destructiveHint).map((t) => t.name)).toEqual([
      'open_position',
      'close_positions',
    ]);
  });

  it('has output schemas one shared validator compiles, accepting real data and refusing wrong types', () => {
    const validator = new AjvJsonSchemaValidator();
    const check = validator.getValidator(byName.get('get_markets')!.outputSchema!);
    const market = {
      market: 'BTC',
      markPrice: 100000.05,
      bid: 100000,
      ask: 100000.1,
    };
    expect(check({ tradingEnabled: true, markets: [market] }).valid).toBe(false); // incomplete market entries are refused
    expect(check({ tradingEnabled: 'yes', markets: [] }).valid).toBe(false);
    for (const tool of listing.tools) expect(() => validator.getValidator(tool.outputSchema!)).not.toThrow();
  });

  it('is built once and immutable, so requests can share it', () => {
    expect(Object.isFrozen(listing.tools)).toBe(true);
    expect(Object.isFrozen(listing.tools[0]!.inputSchema)).toBe(true);
    expect(() => {
      (listing.tools[0] as { name: string }).name = 'changed';
    }).toThrow(TypeError);
  });
});
