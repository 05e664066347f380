import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { type JSONRPCMessage, isJsonContentType } from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders } from 'node:http';
import {
  LEGACY_PROTOCOL_VERSIONS,
  MAX_BATCH_SIZE,
  META,
  MODERN_PROTOCOL_VERSIONS,
  NAMED_METHODS,
  REMOVED_IN_MODERN,
  RPC,
  SERVED_PROTOCOL_VERSIONS,
  decodeHeaderValue,
  isModernVersion,
} from './mcp-revisions';

export type RpcId = string | number | null;

/** A POST answered by the transport itself: an HTTP status and a JSON-RPC error. */
export interface Refusal {
  status: number;
  code: number;
  message: string;
  id: RpcId;
  data?: unknown;
}

/** A POST whose messages go to the protocol layer; `modern` when it speaks 2026-07-28. */
export interface AcceptedPost {
  messages: JSONRPCMessage[];
  /** The method of a modern request (one request per POST), undefined for the legacy revisions. */
  modern?: { method: string };
}

/**
 * Checks one POST to the MCP endpoint, for both revisions served (see mcp-revisions.ts):
 * - common to both: `Accept` of JSON and event streams (406), a JSON content type (415);
 * - a request whose `params._meta` names its protocol version, or whose `MCP-Protocol-Version` header
 *   names a 2026-07-28-era version, is checked as 2026-07-28 (one message per POST; the required
 *   `_meta` fields, -32602; the `MCP-Protocol-Version` header against the body's version, -32020;
 *   the version, -32022 with the supported versions as data; the `Mcp-Method` and `Mcp-Name`
 *   headers against the body, -32020; methods
 *   the revision removed, -32601 with 404);
 * - anything else is the 2025-11-25 Streamable HTTP exchange (batches, `initialize`), with an
 *   unsupported `MCP-Protocol-Version` header answered -32022 like the modern revision does.
 * Every refusal of a readable request keeps its id. A message that is JSON but not a JSON-RPC
 * message is -32600 (Invalid Request).
 */
export function checkMcpPost(headers: IncomingHttpHeaders, body: unknown): AcceptedPost | Refusal {
  const accept = headers.accept ?? '';
  const single = Array.isArray(body) ? undefined : body;
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return refusal(
      406,
      RPC.transport,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
      idOf(single),
    );
  }
  if (!isJsonContentType(headers['content-type'])) {
    return refusal(415, RPC.transport, 'Unsupported Media Type: Content-Type must be application/json', idOf(single));
  }
  const headerVersion = headerValue(headers['mcp-protocol-version']);
  const metaVersion = metaOf(single)?.[META.protocolVersion];
  if (metaVersion !== undefined || (headerVersion !== undefined && isModernVersion(headerVersion)))
    return checkModern(headers, body, headerVersion);
  return checkLegacy(body, headerVersion);
}

function checkLegacy(body: unknown, headerVersion: string | undefined): AcceptedPost | Refusal {
  const raw = Array.isArray(body) ? body : [body];
  if (raw.length > MAX_BATCH_SIZE)
    return refusal(400, RPC.invalidRequest, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`, null);
  const messages: JSONRPCMessage[] = [];
  for (const item of raw) {
    const message = parseMessage(item);
    if (!message) return invalidMessage(Array.isArray(body) ? undefined : item);
    messages.push(message);
  }
  const initializing = messages.some((m) => 'method' in m && m.method === 'initialize');
  if (initializing && messages.length > 1)
    return refusal(400, RPC.invalidRequest, 'Invalid Request: Only one initialization request is allowed', null);
  if (!initializing && headerVersion !== undefined && !LEGACY_PROTOCOL_VERSIONS.includes(headerVersion))
    return unsupportedVersion(headerVersion, messages.length === 1 ? idOf(messages[0]) : null);
  return { messages };
}

function checkModern(
  headers: IncomingHttpHeaders,
  body: unknown,
  headerVersion: string | undefined,
): AcceptedPost | Refusal {
  if (Array.isArray(body))
    return refusal(400, RPC.invalidRequest, `Invalid Request: send one JSON-RPC message per POST`, null);
  const message = parseMessage(body);
  if (!message || !('method' in message)) return invalidMessage(body);
  if (!('id' in message)) return { messages: [message] }; // a notification: accepted (202)
  const id = message.id;
  const meta = metaOf(message);
  const version = meta?.[META.protocolVersion];
  const capabilities = meta?.[META.clientCapabilities];
  if (typeof version !== 'string' || !isObject(capabilities)) {
    return refusal(
      400,
      RPC.invalidParams,
      `Invalid params: a ${MODERN_PROTOCOL_VERSIONS[0]} request carries params._meta["${META.protocolVersion}"] (a string) and params._meta["${META.clientCapabilities}"] (an object).`,
      id,
    );
  }
  if (headerVersion !== version)
    return headerMismatch('MCP-Protocol-Version', headers['mcp-protocol-version'], version, id);
  if (!MODERN_PROTOCOL_VERSIONS.includes(version)) return unsupportedVersion(version, id);
  const method = headerValue(headers['mcp-method']);
  if (method !== message.method) return headerMismatch('Mcp-Method', headers['mcp-method'], message.method, id);
  const field = NAMED_METHODS[message.method];
  if (field) {
    const expected = (message.params as Record<string, unknown> | undefined)?.[field];
    const sent = headerValue(headers['mcp-name']);
    if (typeof expected === 'string' && (sent === undefined || decodeHeaderValue(sent) !== expected))
      return headerMismatch('Mcp-Name', headers['mcp-name'], expected, id);
  }
  if (REMOVED_IN_MODERN.has(message.method)) {
    return refusal(
      404,
      RPC.methodNotFound,
      `Method not found: ${message.method} is not part of MCP ${version} (use server/discover; every request carries its version in _meta).`,
      id,
    );
  }
  return { messages: [message], modern: { method: message.method } };
}

function parseMessage(item: unknown): JSONRPCMessage | undefined {
  if (isPlainCall(item)) return item;
  const parsed = JSONRPCMessageSchema.safeParse(item);
  return parsed.success ? parsed.data : undefined;
}

function invalidMessage(item: unknown): Refusal {
  return refusal(
    400,
    RPC.invalidRequest,
    'Invalid Request: not a JSON-RPC 2.0 message ({"jsonrpc": "2.0", "id": <string or integer>, "method": <string>, ' +
      '"params": {...}})',
    idOf(item),
  );
}

function unsupportedVersion(requested: string, id: RpcId): Refusal {
  return refusal(
    400,
    RPC.unsupportedProtocolVersion,
    `Unsupported protocol version: ${requested.slice(0, 40)} (supported versions: ${SERVED_PROTOCOL_VERSIONS.join(', ')})`,
    id,
    { supported: SERVED_PROTOCOL_VERSIONS, requested: requested.slice(0, 40) },
  );
}

function headerMismatch(header: string, sent: string | string[] | undefined, expected: string, id: RpcId): Refusal {
  const what = sent === undefined ? 'is missing' : `(${JSON.stringify(String(sent).slice(0, 80))}) does not match`;
  return refusal(
    400,
    RPC.headerMismatch,
    `Header mismatch: the ${header} header ${what} the request body (${JSON.stringify(expected.slice(0, 80))}).`,
    id,
  );
}

function refusal(status: number, code: number, message: string, id: RpcId, data?: unknown): Refusal {
  return data === undefined ? { status, code, message, id } : { status, code, message, id, data };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function metaOf(message: unknown): Record<string, unknown> | undefined {
  if (!isObject(message) || !isObject(message['params'])) return undefined;
  const meta = message['params']['_meta'];
  return isObject(meta) ? meta : undefined;
}

/** The id of a request, when it can be read (a string or an integer); null otherwise. */
export function idOf(message: unknown): RpcId {
  if (!isObject(message)) return null;
  const id = message['id'];
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : null;
}

const CALL_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The common shape of a JSON-RPC request or notification that the SDK's JSONRPCMessageSchema accepts
 * as it is: exactly these keys, version 2.0, a string or integer id, a method name, and params that
 * are an object whose `_meta`, if any, is plain (see {@link isPlainMeta}). Anything else is left to
 * the schema.
 */
function isPlainCall(value: unknown): value is JSONRPCMessage {
  if (!isObject(value)) return false;
  for (const key in value) if (!CALL_KEYS.has(key)) return false;
  const { id, params } = value;
  if (value['jsonrpc'] !== '2.0' || typeof value['method'] !== 'string') return false;
  if (id !== undefined && typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (params === undefined) return true;
  return isObject(params) && isPlainMeta(params['_meta']);
}

/**
 * A request `_meta` the SDK's schemas accept as it is: absent, or an object without the two keys they
 * check (`progressToken` and the related-task key). The 2026-07-28 keys (protocol version, client
 * capabilities and info) are not checked by the SDK; this transport checks them itself.
 */
export function isPlainMeta(meta: unknown): boolean {
  return meta === undefined || (isObject(meta) && !('progressToken' in meta) && !(RELATED_TASK in meta));
}

const RELATED_TASK = 'io.modelcontextprotocol/related-task';
