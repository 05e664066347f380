import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { envelopeToolErrors, ok } from './tool-result';

describe('alerts MCP tool errors', () => {
  let client: Client;

  beforeAll(async () => {
    const server = new McpServer({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
    envelopeToolErrors(server);
    server.registerTool('get_watch', { inputSchema: { id: z.uuid() } }, ({ id }) => ok({ id }));
    server.registerTool('broken', {}, () => {
      throw new Error('connection refused by 10.0.0.7');
    });
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await server.connect(serverEnd);
    client = new Client({ name: 'test-client', version: '1' });
    await client.connect(clientEnd);
  });

  afterAll(() => client.close());

  it('answers arguments that fail the input schema as validation_failed, naming what is wrong', async () => {
    const result = await client.callTool({ name: 'get_watch', arguments: { id: 'not-a-uuid' } });
    expect(result.isError).toBe(true);
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(text).toMatch(/^validation_failed: Invalid arguments for tool get_watch: /);
    expect(text).toContain('id');
  });

  it('answers an uncoded failure as internal_error, without its details', async () => {
    const result = await client.callTool({ name: 'broken', arguments: {} });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'internal_error: Something went wrong on our side. Please try again shortly.' }],
    });
  });

  it('serves valid arguments', async () => {
    const id = '3f2b8a7e-4c1d-4e8f-9a6b-1c2d3e4f5a6b';
    const result = await client.callTool({ name: 'get_watch', arguments: { id } });
    expect(result.structuredContent).toEqual({ id });
  });
});
