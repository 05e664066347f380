import { Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { ToolContext } from '@paper/tools-runtime';
import type { Request, Response } from 'express';
import { UI_EXTENSION, buildUiResources } from '../views/ui-resources';
import { MCP_SERVER_INSTRUCTIONS } from './mcp-instructions';
import { buildMcpToolListing } from './mcp-tool-listing';
import { McpToolCalls } from './mcp-tool-calls.service';
import { RequestServer } from './transport/request-server';
import { serialisedOnce } from './transport/serialised-results';
import { StatelessJsonTransport } from './transport/stateless-json.transport';

export const MCP_SERVER_INFO = { name: 'paper-perps', title: 'Paper Perps', version: '0.1.0' } as const;

/** MCP's error code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

const CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  extensions: UI_EXTENSION,
};

/** Idle servers kept for the next requests (at most this many; more are built under a burst). */
const POOL_SIZE = 64;

interface PooledServer {
  server: RequestServer;
  /** Binds the server's handlers to the context of the request it serves now. */
  bind(ctx: ToolContext): void;
}

/**
 * Stateless Streamable HTTP: every POST /mcp is served by an SDK `Server` (see RequestServer; the
 * protocol layer: JSON-RPC dispatch, request validation, initialize negotiation, errors) connected to a
 * {@link StatelessJsonTransport} on that request's response and bound to the caller's tool context.
 * The SDK's protocol layer serves one transport at a time, so a server never serves two requests at
 * once; building one per request, though, allocates more than the rest of an MCP call (its maps and
 * handlers), so servers are kept in a pool: once a request is answered its server is detached from
 * the transport and serves a later request. A server whose client went away mid-request is closed
 * (stopping its handlers) and dropped.
 * Nothing else lives between requests (no session): any replica serves any request. What is costly
 * to build is built once and shared: the tools/list result, the UI resources and their listing (all
 * serialised once), and the JSON-schema validator.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('McpServer');
  private readonly listing = buildMcpToolListing();
  private readonly views = buildUiResources();
  private readonly templates = serialisedOnce({ resourceTemplates: [] });
  private readonly validator = new AjvJsonSchemaValidator();
  private readonly idle: PooledServer[] = [];

  constructor(private readonly calls: McpToolCalls) {}

  private create(): PooledServer {
    let ctx: ToolContext | undefined;
    const server = new RequestServer(MCP_SERVER_INFO, {
      capabilities: CAPABILITIES,
      instructions: MCP_SERVER_INSTRUCTIONS,
      jsonSchemaValidator: this.validator,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => this.listing);
    server.setToolCallHandler((request) => this.calls.call(request.params.name, request.params.arguments, ctx!));
    server.setRequestHandler(ListResourcesRequestSchema, () => this.views.listing);
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => this.templates);
    server.setRequestHandler(ReadResourceRequestSchema, (request) => {
      const read = this.views.read(request.params.uri);
      if (!read)
        throw new McpError(RESOURCE_NOT_FOUND as ErrorCode, `Resource not found: ${request.params.uri.slice(0, 200)}`, {
          uri: request.params.uri.slice(0, 200),
        });
      return read;
    });
    return { server, bind: (next) => (ctx = next) };
  }

  /** Serves one POST with an already parsed body; the answer is written when its requests are answered. */
  async handle(req: Request, res: Response, body: unknown, ctx: ToolContext): Promise<void> {
    const pooled = this.idle.pop() ?? this.create();
    pooled.bind(ctx);
    const transport = new StatelessJsonTransport(res);
    transport.onerror = (error) => this.logger.debug(`transport: ${error.message}`);
    transport.onanswered = () => {
      if (pooled.server.detach() && this.idle.length < POOL_SIZE) this.idle.push(pooled);
    };
    // A client that goes away before its answer: stop the handlers still running for it.
    res.once('close', () => {
      if (transport.answering) void pooled.server.close();
    });
    await pooled.server.connect(transport);
    transport.receive(req.headers, body);
  }
}
