import type { Implementation, JSONRPCMessage } from '@modelcontextprotocol/server';
import { CACHEABLE_METHODS, META } from './mcp-revisions';
import { storedJson } from './serialised-results';

/** A JSON-RPC response as pieces to write and their length in bytes. */
export interface Serialised {
  pieces: (string | Buffer)[];
  bytes: number;
}

/** How long a client may keep a cacheable result (2026-07-28 `ttlMs`) and who may share it (`cacheScope`). */
export interface CacheHints {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/**
 * The fields a 2026-07-28 result carries besides its own: `resultType: "complete"`, the server's
 * identity in `_meta`, and on cacheable results (lists, reads, discovery) the caching hints. Built once
 * per endpoint, as objects and as JSON fragments spliced in front of a result's own fields.
 */
export class ModernResultFields {
  private readonly plain: Record<string, unknown>;
  private readonly cacheable: Record<string, unknown>;
  private readonly plainJson: string;
  private readonly cacheableJson: string;

  constructor(serverInfo: Implementation, cache: CacheHints) {
    this.plain = { resultType: 'complete', _meta: { [META.serverInfo]: serverInfo } };
    this.cacheable = { resultType: 'complete', ttlMs: cache.ttlMs, cacheScope: cache.cacheScope, ...this.plain };
    this.plainJson = JSON.stringify(this.plain).slice(1, -1);
    this.cacheableJson = JSON.stringify(this.cacheable).slice(1, -1);
  }

  fields(method: string): Record<string, unknown> {
    return CACHEABLE_METHODS.has(method) ? this.cacheable : this.plain;
  }

  json(method: string): string {
    return CACHEABLE_METHODS.has(method) ? this.cacheableJson : this.plainJson;
  }
}

const RESULT_OPENING = '{"result":';
const MODERN_OPENING = '{"result":{';

/**
 * A JSON-RPC response ready to write, a result serialised once (see serialised-results.ts) spliced in
 * as it is. With `modern` (a 2026-07-28 request's method and the endpoint's fields), the result gets
 * the revision's fields; a stored result then gets them as a JSON fragment in front of its own.
 */
export function serialiseResponse(
  message: JSONRPCMessage,
  modern?: { method: string; fields: ModernResultFields },
): Serialised {
  const result = 'result' in message ? (message.result as Record<string, unknown>) : undefined;
  const stored = result ? storedJson(result) : undefined;
  if (!('id' in message) || !result || (stored === undefined && !modern)) return whole(message);
  const tail = `,"jsonrpc":"2.0","id":${JSON.stringify(message.id)}}`;
  if (!modern) {
    return {
      pieces: [RESULT_OPENING, stored!.json, tail],
      bytes: RESULT_OPENING.length + stored!.json.length + Buffer.byteLength(tail),
    };
  }
  if (stored === undefined || '_meta' in result || 'resultType' in result) {
    const fields = modern.fields.fields(modern.method);
    const meta = { ...(result['_meta'] as object | undefined), ...(fields['_meta'] as object) };
    return whole({ ...message, result: { ...result, ...fields, _meta: meta } } as JSONRPCMessage);
  }
  const own = stored.json.subarray(1); // the result's members and its closing brace
  const front = modern.fields.json(modern.method) + (own.length > 1 ? ',' : '');
  return {
    pieces: [MODERN_OPENING + front, own, tail],
    bytes: MODERN_OPENING.length + Buffer.byteLength(front) + own.length + Buffer.byteLength(tail),
  };
}

function whole(message: JSONRPCMessage): Serialised {
  const text = JSON.stringify(message);
  return { pieces: [text], bytes: Buffer.byteLength(text) };
}
