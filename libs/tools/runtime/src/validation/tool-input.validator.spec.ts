import { ToolErrorCode, findTool } from '@paper/contracts';
import { ToolError } from '../errors/tool.error';
import { coerceQueryArgs } from './query-coercion';
import { parseToolInput } from './tool-input.validator';

const tool = (name: string) => findTool(name)!;

function failure(name: string, raw: unknown): ToolError {
  try {
    parseToolInput(tool(name), raw);
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error('expected a ToolError');
}

describe('parseToolInput', () => {
  it('treats an absent body as no arguments and applies defaults', () => {
    expect(parseToolInput(tool('get_protocol_stats'), undefined)).toEqual({ days: 14 });
    expect(parseToolInput(tool('get_markets'), null)).toEqual({});
  });

  it('refuses unknown parameters with unknown_parameter naming them and the accepted ones', () => {
    const error = failure('get_price_chart', { market: 'BTC', colour: 'red' });
    expect(error.code).toBe(ToolErrorCode.UnknownParameter);
    expect(error.status).toBe(400);
    expect(error.message).toContain('"colour"');
    expect(error.message).toContain('market, interval, count');
  });

  it('names a missing required parameter and its accepted values', () => {
    const error = failure('get_price_chart', {});
    expect(error.code).toBe(ToolErrorCode.InvalidArguments);
    expect(error.message).toContain('"market" is required (one of BTC, ETH)');
  });

  it.each([
    ['get_price_chart', { market: 'BTC', count: 9 }, '"count" must be at least 10'],
    ['get_price_chart', { market: 'BTC', count: 501 }, '"count" must be at most 500'],
    ['get_price_chart', { market: 'BTC', count: 10.5 }, '"count" must be a whole number'],
    [
      'calculate_position',
      { market: 'BTC', side: 'long', marginUsd: 0, leverage: 2 },
      '"marginUsd" must be greater than 0',
    ],
    ['get_leaderboard', { q: 'x'.repeat(65) }, '"q" must have at most 64 characters'],
    ['close_positions', { positionIds: ['1', 'x'] }, '"positionIds.1" must be a string of digits'],
    ['get_account', { wallet: '0x12' }, '"wallet" must be a 0x address of 40 hex digits'],
    ['get_leaderboard', { window: '1y' }, '"window" must be one of 24h, 7d, 30d, all; got "1y"'],
    ['get_protocol_stats', { days: '7' }, '"days" must be a number, got "7"'],
  ])('%s %j -> %s', (name, args, message) => {
    const error = failure(name, args);
    expect(error.code).toBe(ToolErrorCode.InvalidArguments);
    expect(error.message).toContain(message);
  });

  it.each([[[]], ['text'], [42], [true]])('refuses a body that is not an object: %j', (body) => {
    const error = failure('get_markets', body);
    expect(error.code).toBe(ToolErrorCode.InvalidArguments);
    expect(error.message).toContain('must be a JSON object');
  });
});

describe('coerceQueryArgs', () => {
  it('coerces numbers and booleans by the schema and leaves text for validation to report', () => {
    expect(coerceQueryArgs(tool('get_price_chart'), { market: 'BTC', count: '50' })).toEqual({
      market: 'BTC',
      count: 50,
    });
    expect(coerceQueryArgs(tool('close_positions'), { all: 'true' })).toEqual({ all: true });
    expect(coerceQueryArgs(tool('close_positions'), { all: '0' })).toEqual({ all: false });
    expect(coerceQueryArgs(tool('get_price_chart'), { count: 'many' })).toEqual({ count: 'many' });
    expect(coerceQueryArgs(tool('calculate_position'), { marginUsd: '12.5', entryPrice: '1e3' })).toEqual({
      marginUsd: 12.5,
      entryPrice: 1000,
    });
  });

  it('keeps strings that look like numbers for string parameters', () => {
    expect(coerceQueryArgs(tool('get_leaderboard'), { q: '123' })).toEqual({ q: '123' });
  });

  it('builds lists from repeated or comma-separated values', () => {
    expect(coerceQueryArgs(tool('close_positions'), { positionIds: ['1', '2,3'] })).toEqual({
      positionIds: ['1', '2', '3'],
    });
  });

  it('passes unknown parameters through so they are refused', () => {
    const args = coerceQueryArgs(tool('get_markets'), { zoom: '2' });
    expect(() => parseToolInput(tool('get_markets'), args)).toThrow(/Unknown parameter "zoom"/);
  });

  it('keeps a repeated scalar as a list so validation refuses it', () => {
    expect(() =>
      parseToolInput(tool('get_price_chart'), coerceQueryArgs(tool('get_price_chart'), { market: ['BTC', 'ETH'] })),
    ).toThrow(/"market"/);
  });
});

describe('prototype-named parameters', () => {
  it('refuses constructor, __proto__ and toString as unknown parameters from a query string', () => {
    for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const args = coerceQueryArgs(tool('get_markets'), { [key]: '1' });
      expect(() => parseToolInput(tool('get_markets'), args)).toThrow(ToolError);
    }
  });
});
