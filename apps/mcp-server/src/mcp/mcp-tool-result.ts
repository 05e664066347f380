import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolSuccess } from '@paper/contracts';

/**
 * A successful tool run as an MCP result: `structuredContent` is the envelope's `data` (it matches the
 * tool's outputSchema) and the text copy is the envelope's summary followed by the same data as
 * compact JSON, for clients that only read text.
 */
export function successResult(envelope: ToolSuccess): CallToolResult {
  return {
    content: [{ type: 'text', text: `${envelope.summary}\n\n${JSON.stringify(envelope.data)}` }],
    structuredContent: envelope.data,
  };
}

/**
 * A failed tool run as an MCP tool-execution error (`isError: true`), so the model can read it and
 * correct the call: the text is `<code>: <message>`, the same code and message the REST family returns
 * in its failure envelope. No structuredContent (it would be checked against the success schema).
 */
export function errorResult(code: string, message: string): CallToolResult {
  return { content: [{ type: 'text', text: `${code}: ${message}` }], isError: true };
}
