import { CALCULATE_POSITION, MAX_MARGIN_USD, MAX_PRICE, toolJsonSchema } from '@paper/contracts';
import Ajv2020 from 'ajv/dist/2020';
import { CalculatorHandler } from './calculator.handler';
import type { PriceReader } from '../exchange/price.reader';

/** Given entry and exit prices the calculator reads no live price. */
const handler = new CalculatorHandler(undefined as unknown as PriceReader);
const validData = new Ajv2020({ strict: false }).compile(toolJsonSchema(CALCULATE_POSITION, 'output'));

describe('calculate_position at the bounds of its arguments', () => {
  it.each([
    [
      'the largest margin at 1000x to the highest price',
      { marginUsd: MAX_MARGIN_USD, leverage: 1000, entryPrice: 0.1, exitPrice: MAX_PRICE },
    ],
    [
      'the largest margin at 1000x from the highest price down',
      { marginUsd: MAX_MARGIN_USD, leverage: 1000, entryPrice: MAX_PRICE, exitPrice: 0.1 },
    ],
    ['the smallest margin', { marginUsd: 0.000001, leverage: 1, entryPrice: 0.1, exitPrice: MAX_PRICE }],
  ])('keeps every number finite and valid against the output schema: %s', async (_label, args) => {
    for (const side of ['long', 'short'] as const) {
      const { data } = await handler.run({ market: 'BTC', side, ...args });
      expect(validData(data)).toBe(true);
      const numbers = JSON.stringify(data).match(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi) ?? [];
      expect(numbers.every((n) => Number.isFinite(Number(n)))).toBe(true);
      expect(JSON.stringify(data)).not.toContain('null,"entryPrice"');
      expect(data.notionalUsd).toBe(args.marginUsd * args.leverage);
    }
  });
});
