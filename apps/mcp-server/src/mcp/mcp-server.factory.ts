import { Injectable } from '@nestjs/common';
import {
  type JSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { McpEndpoint, type PooledMcpServer, RequestServer, serialisedOnce } from '@paper/nest-infra';
import type { ToolContext } from '@paper/tools-runtime';
import type { Request, Response } from 'express';
import { UI_EXTENSION, buildUiResources } from '../views/ui-resources';
import { MCP_SERVER_INSTRUCTIONS } from './mcp-instructions';
import { buildMcpToolListing } from './mcp-tool-listing';
import { McpToolCalls } from './mcp-tool-calls.service';

export const MCP_SERVER_INFO = { name: 'paper-perps', title: 'Paper Perps', version: '0.1.0' } as const;

/** MCP's error code for a resource that does not exist (2025-11-25; 2026-07-28 uses -32602). */
const RESOURCE_NOT_FOUND = -32002;

export const CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  extensions: UI_EXTENSION,
};

/**
 * The tool API's MCP endpoint (see McpEndpoint: both revisions, one pooled SDK `Server` per request in
 * flight, bound to the caller's tool context). What is costly to build is built once and shared: the
 * tools/list result, the UI resources and their listing (all serialised once), and the JSON-schema
 * validator.
 */
@Injectable()
export class McpServerFactory {
  private readonly listing = buildMcpToolListing();
  private readonly views = buildUiResources();
  private readonly templates = serialisedOnce({ resourceTemplates: [] });
  private readonly validator = new AjvJsonSchemaValidator();
  private readonly endpoint = new McpEndpoint<ToolContext>({
    serverInfo: MCP_SERVER_INFO,
    instructions: MCP_SERVER_INSTRUCTIONS,
    create: () => this.create(),
  });

  constructor(private readonly calls: McpToolCalls) {}

  private create(): PooledMcpServer<ToolContext> {
    let ctx: ToolContext | undefined;
    const server = new RequestServer(MCP_SERVER_INFO, {
      capabilities: CAPABILITIES,
      instructions: MCP_SERVER_INSTRUCTIONS,
      jsonSchemaValidator: this.validator,
    });
    // Answered directly (see RequestServer; also registered with the SDK's protocol layer).
    server.setDirectHandler('tools/list', () => this.listing);
    server.setDirectHandler('resources/list', () => this.views.listing);
    server.setDirectHandler('resources/templates/list', () => this.templates);
    server.setToolCallHandler((request) => this.calls.call(request.params.name, request.params.arguments, ctx!));
    server.setDirectHandler('resources/read', (request) => this.readView(request));
    return { server, bind: (next) => (ctx = next) };
  }

  /**
   * resources/read of a view. A URI that names no view is -32002 (Resource not found) on MCP 2025-11-25,
   * as that revision specifies and as its clients have always been answered, and -32602 on 2026-07-28.
   * It is answered directly: the SDK's protocol layer would send -32602 on every revision.
   */
  private readView(request: JSONRPCRequest): ReadResourceResult {
    const params = request.params as { uri?: unknown; _meta?: Record<string, unknown> } | undefined;
    const uri = params?.uri;
    if (typeof uri !== 'string')
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params: resources/read takes a string uri.');
    const read = this.views.read(uri);
    if (read) return read;
    const modern = params?._meta?.[PROTOCOL_VERSION_META_KEY] !== undefined;
    throw new ProtocolError(
      modern ? ProtocolErrorCode.InvalidParams : RESOURCE_NOT_FOUND,
      `Resource not found: ${uri.slice(0, 200)}`,
      { uri: uri.slice(0, 200) },
    );
  }

  /** Serves one POST with an already parsed body; the answer is written when its requests are answered. */
  handle(req: Request, res: Response, body: unknown, ctx: ToolContext): Promise<void> {
    return this.endpoint.handle(req, res, body, ctx);
  }
}
