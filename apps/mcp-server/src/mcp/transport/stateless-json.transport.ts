import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { storedJson } from './serialised-results';

/** JSON-RPC error code of the transport's own refusals (as the SDK's Streamable HTTP transport uses it). */
const TRANSPORT_ERROR = -32000;

interface Refusal {
  status: number;
  code: number;
  message: string;
}

/**
 * One stateless Streamable HTTP exchange answered with JSON (MCP 2025-11-25, "Sending Messages to the
 * Server"): the SDK's protocol layer (`Server`) receives the POST's JSON-RPC messages through this
 * transport, and the answer is written on the Node response once every request of the body has its
 * response: one object for one request, an array for several, `202 Accepted` without a body when the
 * POST carries only notifications or responses.
 *
 * It answers like the SDK's StreamableHTTPServerTransport in stateless JSON mode (406 without an Accept
 * of both JSON and event streams, 415 for another content type, 400 for a message that is not JSON-RPC,
 * for a batch over the SDK's size limit, for initialize batched with other messages, and for an
 * unsupported `MCP-Protocol-Version`), but works on Node's request and response directly instead of
 * converting both to Web Fetch objects, and splices results serialised once (see serialised-results.ts)
 * into the answer.
 */
export class StatelessJsonTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called once the exchange is over: the answer (or the refusal) is written. */
  onanswered?: () => void;

  private readonly awaited: RequestId[] = [];
  private readonly answers = new Map<RequestId, Serialised>();
  private answered = false;
  private closed = false;

  constructor(private readonly res: ServerResponse) {}

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  /** Whether the exchange is still under way (its answer not written yet). */
  get answering(): boolean {
    return !this.answered && !this.closed;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || 'method' in message || message.id === undefined) return; // no stream carries server-initiated messages
    if (this.answered || this.closed || !this.awaited.includes(message.id)) return;
    this.answers.set(message.id, serialiseResponse(message));
    if (this.answers.size === this.awaited.length) this.answer();
  }

  /**
   * Checks the POST (headers and its parsed body) and hands its messages to the protocol layer, or
   * answers the refusal. The answer is written by {@link send} once every request has its response.
   */
  receive(headers: IncomingHttpHeaders, body: unknown): void {
    const checked = checkPost(headers, body);
    if ('status' in checked) {
      this.onerror?.(new Error(checked.message));
      writeRefusal(this.res, checked);
      this.done();
      return;
    }
    // A request id repeated within a batch is answered once (as the SDK's transport does).
    for (const message of checked)
      if ('method' in message && 'id' in message && !this.awaited.includes(message.id)) this.awaited.push(message.id);
    if (this.awaited.length === 0) {
      for (const message of checked) this.onmessage?.(message);
      this.res.writeHead(202).end();
      this.done();
      return;
    }
    for (const message of checked) this.onmessage?.(message);
  }

  /**
   * Writes every response at once, with its length known (not chunked). A small answer leaves in one
   * write of one string; one that splices a stored result is written piece by piece in one vectored
   * write, the stored JSON as it is, so the answer is never copied together in the JavaScript heap.
   */
  private answer(): void {
    const responses = this.awaited.map((id) => this.answers.get(id)!);
    const pieces =
      responses.length === 1
        ? responses[0]!.pieces
        : ['[', ...responses.flatMap((r, i) => (i === 0 ? r.pieces : [',', ...r.pieces])), ']'];
    const bytes = responses.reduce((sum, r) => sum + r.bytes, responses.length === 1 ? 0 : responses.length + 1);
    this.res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': bytes });
    if (pieces.length === 1) {
      this.res.end(pieces[0]);
    } else {
      this.res.cork();
      for (const piece of pieces) this.res.write(piece);
      this.res.end();
      this.res.uncork();
    }
    this.done();
  }

  private done(): void {
    this.answered = true;
    this.onanswered?.();
  }
}

/** The messages of a valid POST, or why it is refused. */
function checkPost(headers: IncomingHttpHeaders, body: unknown): JSONRPCMessage[] | Refusal {
  const accept = headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return {
      status: 406,
      code: TRANSPORT_ERROR,
      message: 'Not Acceptable: Client must accept both application/json and text/event-stream',
    };
  }
  if (!isJsonContentType(headers['content-type'])) {
    return {
      status: 415,
      code: TRANSPORT_ERROR,
      message: 'Unsupported Media Type: Content-Type must be application/json',
    };
  }
  const raw = Array.isArray(body) ? body : [body];
  if (raw.length > MAX_BATCH_SIZE) {
    return {
      status: 400,
      code: ErrorCode.InvalidRequest,
      message: `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`,
    };
  }
  const messages: JSONRPCMessage[] = [];
  for (const item of raw) {
    if (isPlainCall(item)) {
      messages.push(item);
      continue;
    }
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success)
      return { status: 400, code: ErrorCode.ParseError, message: 'Parse error: Invalid JSON-RPC message' };
    messages.push(parsed.data);
  }
  const initializing = messages.some((m) => 'method' in m && m.method === 'initialize');
  if (initializing && messages.length > 1) {
    return {
      status: 400,
      code: ErrorCode.InvalidRequest,
      message: 'Invalid Request: Only one initialization request is allowed',
    };
  }
  const version = headers['mcp-protocol-version'];
  if (!initializing && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return {
      status: 400,
      code: TRANSPORT_ERROR,
      message: `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    };
  }
  return messages;
}

const CALL_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The common shape of a JSON-RPC request or notification that the SDK's JSONRPCMessageSchema accepts
 * as it is: exactly these keys, version 2.0, a string or integer id, a method name, and params that
 * are an object without `_meta` (whose fields the schema checks). Anything else is left to the schema.
 */
function isPlainCall(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  for (const key in message) if (!CALL_KEYS.has(key)) return false;
  const { id, params } = message;
  if (message['jsonrpc'] !== '2.0' || typeof message['method'] !== 'string') return false;
  if (id !== undefined && typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (params === undefined) return true;
  return typeof params === 'object' && params !== null && !Array.isArray(params) && !('_meta' in params);
}

/** A JSON-RPC response as pieces to write and their length in bytes. */
interface Serialised {
  pieces: (string | Buffer)[];
  bytes: number;
}

const RESULT_OPENING = '{"result":';

/** A JSON-RPC response ready to write, a result serialised once spliced in as it is. */
function serialiseResponse(message: JSONRPCMessage): Serialised {
  const stored = 'result' in message ? storedJson(message.result) : undefined;
  if (stored === undefined || !('id' in message)) {
    const text = JSON.stringify(message);
    return { pieces: [text], bytes: Buffer.byteLength(text) };
  }
  const tail = `,"jsonrpc":"2.0","id":${JSON.stringify(message.id)}}`;
  return {
    pieces: [RESULT_OPENING, stored.json, tail],
    bytes: RESULT_OPENING.length + stored.json.length + Buffer.byteLength(tail),
  };
}

function writeRefusal(res: ServerResponse, refusal: Refusal): void {
  res
    .writeHead(refusal.status, { 'Content-Type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: refusal.code, message: refusal.message }, id: null }));
}
