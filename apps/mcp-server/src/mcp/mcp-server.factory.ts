import { Injectable, Logger } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { ToolContext } from '@paper/tools-runtime';
import type { Request, Response } from 'express';
import { MCP_SERVER_INSTRUCTIONS } from './mcp-instructions';
import { buildMcpToolListing } from './mcp-tool-listing';
import { McpToolCalls } from './mcp-tool-calls.service';

export const MCP_SERVER_INFO = { name: 'paper-perps', title: 'Paper Perps', version: '0.1.0' } as const;

/**
 * Stateless Streamable HTTP: every POST /mcp gets its own low-level MCP server and transport (no
 * session id, JSON responses), bound to the caller's tool context. What is expensive to build is built
 * once and shared by all of them: the tools/list result with its JSON Schemas, and the JSON-schema
 * validator (the SDK would otherwise create a fresh Ajv instance per server).
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('McpServer');
  private readonly listing = buildMcpToolListing();
  private readonly validator = new AjvJsonSchemaValidator();

  constructor(private readonly calls: McpToolCalls) {}

  create(ctx: ToolContext): Server {
    const server = new Server(MCP_SERVER_INFO, {
      capabilities: { tools: { listChanged: false } },
      instructions: MCP_SERVER_INSTRUCTIONS,
      jsonSchemaValidator: this.validator,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => this.listing);
    server.setRequestHandler(CallToolRequestSchema, (request) => this.calls.call(request.params.name, request.params.arguments, ctx));
    return server;
  }

  /** Serves one POST with an already parsed body; resolves when the response is written. */
  async handle(req: Request, res: Response, body: unknown, ctx: ToolContext): Promise<void> {
    const server = this.create(ctx);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    transport.onerror = (error) => this.logger.debug(`transport: ${error.message}`);
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }
}
