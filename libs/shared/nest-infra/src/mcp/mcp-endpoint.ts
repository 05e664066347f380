import { Logger } from '@nestjs/common';
import type { Implementation, JSONRPCMessage, Server, Transport } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SERVED_PROTOCOL_VERSIONS } from './mcp-revisions';
import { type CacheHints, ModernResultFields } from './response-pieces';
import { serialisedOnce } from './serialised-results';
import { StatelessJsonTransport } from './stateless-json.transport';

/** A protocol server kept between requests, and how to point its handlers at the next request's caller. */
export interface PooledMcpServer<Ctx> {
  server: Server;
  bind(ctx: Ctx): void;
}

export interface McpEndpointOptions<Ctx> {
  serverInfo: Implementation;
  instructions?: string;
  /** Builds a server with every handler registered (its capabilities are the ones it declares). */
  create(): PooledMcpServer<Ctx>;
  /** Caching hints of lists, reads and discovery (2026-07-28); the default: public, 5 minutes. */
  cache?: CacheHints;
}

/** Idle servers kept for the next requests (at most this many; more are built under a burst). */
const POOL_SIZE = 64;
const DEFAULT_CACHE: CacheHints = { ttlMs: 300_000, cacheScope: 'public' };

/**
 * One MCP endpoint (`POST /mcp`), stateless, serving MCP 2025-11-25 and 2026-07-28 alike: every POST is
 * served by an SDK `Server` (the protocol layer: JSON-RPC dispatch, request validation, `initialize`
 * of the legacy revisions, errors) connected to a {@link StatelessJsonTransport} on that request's
 * response and bound to the caller's context. `server/discover` (2026-07-28) answers the served
 * versions, the server's capabilities and instructions, built once.
 *
 * The SDK's protocol layer serves one transport at a time, so a server never serves two requests at
 * once; building one per request allocates more than the rest of an MCP call, so servers are kept in a
 * pool: once a request is answered its server is detached from the transport and serves a later
 * request. A server whose client went away mid-request is closed (stopping its handlers) and dropped.
 * Nothing else lives between requests: any replica serves any request.
 */
export class McpEndpoint<Ctx> {
  private readonly logger = new Logger('McpEndpoint');
  private readonly idle: PooledMcpServer<Ctx>[] = [];
  private readonly fields: ModernResultFields;
  private discovery?: object;

  constructor(private readonly options: McpEndpointOptions<Ctx>) {
    this.fields = new ModernResultFields(options.serverInfo, options.cache ?? DEFAULT_CACHE);
  }

  /** Serves one POST with an already parsed body; the answer is written when its requests are answered. */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, ctx: Ctx): Promise<void> {
    const pooled = this.acquire();
    pooled.bind(ctx);
    const transport = new StatelessJsonTransport(res, this.fields);
    transport.onerror = (error) => this.logger.debug(`transport: ${error.message}`);
    transport.onanswered = () => {
      if (detachServer(pooled.server) && this.idle.length < POOL_SIZE) this.idle.push(pooled);
    };
    // A client that goes away before its answer: stop the handlers still running for it.
    res.once('close', () => {
      if (transport.answering) void pooled.server.close();
    });
    await pooled.server.connect(transport);
    // server/discover (2026-07-28) is answered here, the same for every request and every server.
    const protocol = transport.onmessage!;
    const discovery = this.discovery!;
    transport.onmessage = (message: JSONRPCMessage) => {
      if ('method' in message && message.method === 'server/discover' && 'id' in message)
        void transport.send({ jsonrpc: '2.0', id: message.id, result: discovery as JSONRPCResultOf });
      else protocol(message);
    };
    transport.receive(req.headers, body);
  }

  private acquire(): PooledMcpServer<Ctx> {
    const idle = this.idle.pop();
    if (idle) return idle;
    const pooled = this.options.create();
    this.discovery ??= serialisedOnce({
      supportedVersions: [...SERVED_PROTOCOL_VERSIONS],
      capabilities: pooled.server.getCapabilities(),
      ...(this.options.instructions === undefined ? {} : { instructions: this.options.instructions }),
    });
    return pooled;
  }
}

type JSONRPCResultOf = Extract<JSONRPCMessage, { result: unknown }>['result'];

/**
 * Makes a server ready for another request once the exchange on its transport is over (every response
 * sent, nothing pending): the protocol layer forgets the transport without the work of closing it.
 * Returns false when the SDK's protocol layer does not allow it, and the server is then not reused.
 */
export function detachServer(server: Server): boolean {
  const internals = server as unknown as { _transport?: Transport; _negotiatedProtocolVersion?: string };
  internals._transport = undefined;
  // The next request negotiates its own version (an `initialize`) or names it in every request.
  internals._negotiatedProtocolVersion = undefined;
  return server.transport === undefined;
}
