import type { IncomingMessage, ServerResponse } from 'node:http';

/** The most of a refused body read and discarded so the client gets the answer (above it, the connection closes). */
export const DISCARDED_BODY_MAX_BYTES = 16 * 1024 * 1024;

/**
 * For an answer sent before the request body was read (a refusal of a too-large body): the rest of the
 * body is read into nothing, so the connection ends cleanly and the client (or the proxy in front) reads
 * the answer; closing with unread bytes would reset the connection and lose it. A body declared or grown
 * past `maxBytes` is not waited for: the connection closes after the answer.
 */
export function discardUnreadBody(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes = DISCARDED_BODY_MAX_BYTES,
): void {
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) {
    res.setHeader('Connection', 'close');
    return;
  }
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxBytes) req.socket.destroy();
  });
  req.resume();
}
