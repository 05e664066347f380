import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/**
 * The MCP revisions one endpoint serves, and what tells them apart (MCP 2026-07-28, "Versioning and
 * Compatibility": a dual-era server selects its behaviour from how the client opens).
 * - Legacy (2025-11-25 and earlier): `initialize` negotiates the version; later requests may carry it
 *   in the `MCP-Protocol-Version` header. The SDK's protocol layer serves them as before.
 * - Modern (2026-07-28): no handshake; every request carries its version and the client's capabilities
 *   in `params._meta`, and the HTTP headers mirror the method, name and version.
 */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
/** Every version served, newest first (the `supported` list of an unsupported-version error). */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/** The most messages a 2025-11-25 batch may carry (as the SDK's Streamable HTTP transport allowed). */
export const MAX_BATCH_SIZE = 100;

/** The `_meta` keys of a modern request and result. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** JSON-RPC error codes the transport answers with. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  /** The SDK's code for its transport refusals (2025-11-25 era: 406, 415, 413). */
  transport: -32000,
  headerMismatch: -32020,
  unsupportedProtocolVersion: -32022,
} as const;

/** Methods of the legacy revisions that 2026-07-28 removed: a modern request for one is -32601 (HTTP 404). */
export const REMOVED_IN_MODERN: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** Requests whose `Mcp-Name` header mirrors a body field. */
export const NAMED_METHODS: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** Results that carry caching hints (`ttlMs`, `cacheScope`) in 2026-07-28. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

export function isModernVersion(version: string): boolean {
  return version >= MODERN_PROTOCOL_VERSION;
}

/** The value of an `Mcp-Name` (or `Mcp-Param-*`) header, its `=?base64?…?=` form decoded; undefined if malformed. */
export function decodeHeaderValue(value: string): string | undefined {
  const sentinel = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  if (!sentinel) return value.startsWith('=?base64?') && value.endsWith('?=') ? undefined : value;
  return Buffer.from(sentinel[1]!, 'base64').toString('utf8');
}
