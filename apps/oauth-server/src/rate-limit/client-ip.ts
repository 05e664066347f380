import type { Request } from 'express';

/** The client's address (X-Forwarded-For is honoured only from the trusted proxies configured for every app). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
