import { jsonTextTooDeep } from '@paper/nest-infra';
import type { Request } from 'express';

export type McpBody =
  | { kind: 'json'; value: unknown }
  /** Not a JSON content type: left unread, the transport answers 415. */
  | { kind: 'other' }
  | { kind: 'invalid' }
  /** Nested deeper than MAX_JSON_DEPTH (checked before parsing). */
  | { kind: 'too_deep' }
  | { kind: 'too_large' };

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/**
 * Reads and parses the JSON body of POST /mcp (the app's JSON parser skips /mcp, so the body can be
 * inspected here before the MCP transport sees it, and a bad body gets a JSON-RPC error, not the tool
 * envelope).
 */
export async function readMcpBody(req: Request, maxBytes: number): Promise<McpBody> {
  if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) return { kind: 'other' };
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) return { kind: 'too_large' };
  const bytes = await readBytes(req, maxBytes);
  if (bytes === undefined) return { kind: 'too_large' };
  if (jsonTextTooDeep(bytes)) return { kind: 'too_deep' };
  try {
    return { kind: 'json', value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}

/** The body, or undefined past `maxBytes` (the rest is then discarded). */
function readBytes(req: Request, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData).off('end', onEnd);
      req.resume();
      resolve(undefined);
    };
    const onEnd = () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    req.on('data', onData).on('end', onEnd).once('error', reject);
  });
}
