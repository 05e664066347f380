import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, type CallToolRequest, type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type ToolCallHandler = (request: CallToolRequest) => Promise<CallToolResult>;

/** Routes tools/call to the handler, which validates the request itself (once). */
const TOOLS_CALL = z.looseObject({ method: z.literal('tools/call') });

/**
 * The SDK's `Server` for one stateless request, with one difference: the SDK validates a tools/call
 * request twice (the protocol layer, then the server's own wrapper) and parses the result once more on
 * its way out. Here the request is validated once against the SDK's CallToolRequestSchema (an invalid
 * one is -32602, invalid params), and the result goes out as built: results are made by
 * mcp-tool-result.ts, whose output is tested against the SDK's CallToolResultSchema, and keeping the
 * object lets a result serialised once (a cached public answer) be sent as stored.
 */
export class RequestServer extends Server {
  setToolCallHandler(handler: ToolCallHandler): void {
    const install = Protocol.prototype.setRequestHandler as (this: Server, schema: typeof TOOLS_CALL, handler: (request: unknown) => Promise<CallToolResult>) => void;
    install.call(this, TOOLS_CALL, (request) => {
      const parsed = CallToolRequestSchema.safeParse(request);
      if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call request: ${parsed.error.message}`);
      return handler(parsed.data);
    });
  }
}
