import { CallToolRequestSchema } from '@modelcontextprotocol/core';
import {
  type CallToolRequest,
  type CallToolResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type Transport,
} from '@modelcontextprotocol/server';
import { isPlainMeta } from './mcp-post-check';

type ToolCallHandler = (request: CallToolRequest) => Promise<CallToolResult>;

/** The protocol layer's own dispatch of a request (not part of the SDK's typed API). */
type RequestDispatch = (request: JSONRPCRequest, extra?: unknown) => void;

/**
 * The SDK's `Server` for one stateless request, with two differences that spare it work the
 * transport has already done:
 * - the transport checked each message against the SDK's JSON-RPC schemas, so a request goes straight
 *   to the protocol layer's dispatch instead of being told apart from responses by trying their
 *   schemas first (two failed parses, each building an error); other messages take the SDK's path;
 * - the SDK validates a tools/call request twice (the protocol layer, then the server's wrapper) and
 *   parses the result once more on its way out. Here the request is validated once against the SDK's
 *   CallToolRequestSchema (an invalid one is -32602, invalid params) and the result goes out as built:
 *   results are made by mcp-tool-result.ts, whose output is tested against the SDK's
 *   CallToolResultSchema, and keeping the object lets a result serialised once be sent as stored.
 *   A tools/call request goes to its handler directly, answered the way the protocol layer answers
 *   (the result, or the error's code, message and data; -32603 for an error without a JSON-RPC code):
 *   what the protocol layer adds around a handler (cancellation, progress, requests back to the client)
 *   needs a stream that a stateless JSON exchange does not have.
 */
export class RequestServer extends Server {
  /** Requests answered without the protocol layer's per-request machinery, by method. */
  private readonly direct = new Map<string, (request: JSONRPCRequest) => unknown>();

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    const dispatch = (this as unknown as { _onrequest?: RequestDispatch })._onrequest;
    const sdk = transport.onmessage;
    if (typeof dispatch !== 'function' || !sdk) return;
    transport.onmessage = (message: JSONRPCMessage, extra) => {
      if (!('method' in message && 'id' in message)) return sdk(message, extra);
      const direct = this.direct.get(message.method);
      if (direct) void this.answer(transport, message as JSONRPCRequest, direct);
      else dispatch.call(this, message as JSONRPCRequest, extra);
    };
  }

  /**
   * Answers `method` with `handler` directly, the way the protocol layer answers (the result, or the
   * error's code, message and data), without what it builds around a handler per request (an abort
   * controller, the context object, progress and cancellation hooks). For handlers that need none of it:
   * constant results (lists, discovery) and tools/call (see above). The handler is also installed on
   * the protocol layer, which serves it when this server is connected some other way.
   */
  setDirectHandler(method: string, handler: (request: JSONRPCRequest) => unknown): void {
    this.direct.set(method, handler);
    const install = this.setRequestHandler as (method: string, handler: (request: unknown) => unknown) => void;
    install.call(this, method, (request) => handler(request as JSONRPCRequest));
  }

  private async answer(
    transport: Transport,
    request: JSONRPCRequest,
    handler: (request: JSONRPCRequest) => unknown,
  ): Promise<void> {
    let response: JSONRPCMessage;
    try {
      response = { jsonrpc: '2.0', id: request.id, result: (await handler(request)) as JSONRPCMessage & object };
    } catch (error) {
      const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
      response = {
        jsonrpc: '2.0',
        id: request.id,
        error: {
          code: typeof code === 'number' && Number.isSafeInteger(code) ? code : ProtocolErrorCode.InternalError,
          message: typeof message === 'string' ? message : 'Internal error',
          ...(data === undefined ? {} : { data }),
        },
      };
    }
    await transport.send(response).catch((error: Error) => transport.onerror?.(error));
  }

  /** tools/call, validated once (see above) and answered directly. */
  setToolCallHandler(handler: ToolCallHandler): void {
    this.setDirectHandler('tools/call', (request) => handler(parseToolCall(request)));
  }
}

/**
 * A tools/call request checked against the SDK's schema (-32602, invalid params, otherwise). The common
 * shape (params with a string `name`, an object or no `arguments`, a plain `_meta` or none: what the
 * transport let through as a plain call) is what the schema accepts as it is, so it is taken without
 * parsing.
 */
function parseToolCall(request: unknown): CallToolRequest {
  const params = (request as { params?: Record<string, unknown> }).params;
  if (
    params &&
    typeof params['name'] === 'string' &&
    isPlainMeta(params['_meta']) &&
    isArgumentsObject(params['arguments'])
  ) {
    let plain = true;
    for (const key in params) if (key !== 'name' && key !== 'arguments' && key !== '_meta') plain = false;
    if (plain) return request as CallToolRequest;
  }
  const parsed = CallToolRequestSchema.safeParse(request);
  if (!parsed.success)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid tools/call request: ${parsed.error.message}`);
  return parsed.data;
}

function isArgumentsObject(value: unknown): boolean {
  return value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value));
}
