import { CallToolResultSchema } from '@modelcontextprotocol/core';
import { toolSuccess } from '@paper/contracts';
import { errorResult, successResult } from './mcp-tool-result';

describe('MCP tool results', () => {
  it('puts the data in structuredContent and the summary plus JSON in the text', () => {
    const result = CallToolResultSchema.parse(
      successResult(toolSuccess('2 markets are open.', { markets: [{ market: 'BTC' }] })),
    );
    expect(result.structuredContent).toEqual({ markets: [{ market: 'BTC' }] });
    expect(result.isError).toBeUndefined();
    const text = (result.content[0] as { text: string }).text;
    expect(text.split('\n\n')[0]).toBe('2 markets are open.');
    expect(JSON.parse(text.split('\n\n')[1]!)).toEqual({ markets: [{ market: 'BTC' }] });
  });

  it('reports failures as isError results with the REST code and message', () => {
    const result = CallToolResultSchema.parse(
      errorResult('invalid_arguments', 'Invalid arguments for get_price_chart: "count" must be at most 500.'),
    );
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'invalid_arguments: Invalid arguments for get_price_chart: "count" must be at most 500.',
        },
      ],
    });
  });
});
