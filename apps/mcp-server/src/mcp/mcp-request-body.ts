import type { Request } from 'express';

export type McpBody =
  | { kind: 'json'; value: unknown }
  /** Not a JSON content type: left unread, the transport answers 415. */
  | { kind: 'other' }
  | { kind: 'invalid' }
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
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return { kind: 'too_large' };
    chunks.push(chunk);
  }
  try {
    return { kind: 'json', value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}
