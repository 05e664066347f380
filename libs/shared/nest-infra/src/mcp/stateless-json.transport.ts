import type { JSONRPCMessage, RequestId, Transport } from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { type Refusal, checkMcpPost } from './mcp-post-check';
import { RPC } from './mcp-revisions';
import { type ModernResultFields, type Serialised, serialiseResponse } from './response-pieces';

/**
 * One stateless Streamable HTTP exchange answered with JSON, for both revisions an endpoint serves
 * (see mcp-revisions.ts and mcp-post-check.ts): the SDK's protocol layer (`Server`) receives the POST's
 * JSON-RPC messages through this transport, and the answer is written on the Node response once every
 * request of the body has its response: one object for one request, an array for several (2025-11-25
 * batches), `202 Accepted` without a body when the POST carries only notifications or responses.
 *
 * A 2026-07-28 request's result gets that revision's fields (`resultType`, the server's identity in
 * `_meta`, caching hints on lists and reads), and its `-32601 Method not found` is sent with HTTP 404,
 * as the revision's transport requires. It works on Node's request and response directly, and splices
 * results serialised once (see serialised-results.ts) into the answer.
 */
export class StatelessJsonTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called once the exchange is over: the answer (or the refusal) is written. */
  onanswered?: () => void;

  private readonly awaited: RequestId[] = [];
  private readonly answers = new Map<RequestId, Serialised>();
  private modern?: { method: string; fields: ModernResultFields };
  private status = 200;
  private answered = false;
  private closed = false;

  /** `fields`: what a 2026-07-28 result carries besides its own (built once per endpoint). */
  constructor(
    private readonly res: ServerResponse,
    private readonly fields?: ModernResultFields,
  ) {}

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
    if (this.modern && 'error' in message && message.error.code === RPC.methodNotFound) this.status = 404;
    this.answers.set(message.id, serialiseResponse(message, this.modern));
    if (this.answers.size === this.awaited.length) this.answer();
  }

  /**
   * Checks the POST (headers and its parsed body) and hands its messages to the protocol layer, or
   * answers the refusal. The answer is written by {@link send} once every request has its response.
   */
  receive(headers: IncomingHttpHeaders, body: unknown): void {
    const checked = checkMcpPost(headers, body);
    if ('status' in checked) {
      this.onerror?.(new Error(checked.message));
      writeRefusal(this.res, checked);
      this.done();
      return;
    }
    const { messages, modern } = checked;
    if (modern && this.fields) this.modern = { method: modern.method, fields: this.fields };
    // A request id repeated within a batch is answered once (as the SDK's transport does).
    for (const message of messages)
      if ('method' in message && 'id' in message && !this.awaited.includes(message.id)) this.awaited.push(message.id);
    if (this.awaited.length === 0) {
      for (const message of messages) this.onmessage?.(message);
      this.res.writeHead(202).end();
      this.done();
      return;
    }
    for (const message of messages) this.onmessage?.(message);
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
    this.res.writeHead(this.status, { 'Content-Type': 'application/json', 'Content-Length': bytes });
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

function writeRefusal(res: ServerResponse, refusal: Refusal): void {
  const { code, message, data, id } = refusal;
  const error = data === undefined ? { code, message } : { code, message, data };
  res
    .writeHead(refusal.status, { 'Content-Type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error, id }));
}
