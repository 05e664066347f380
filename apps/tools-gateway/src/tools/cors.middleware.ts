import type { NextFunction, Request, Response } from 'express';

const CORS_PATHS = ['/api/', '/openapi.json', '/.well-known/openapi.json', '/charts/', '/docs'] as const;
const EXPOSED = 'Retry-After, WWW-Authenticate, X-Cache, Allow';

/** Whether the request path (read from the raw URL: no URL parsing per request) is one of the open ones. */
function isCorsPath(url: string): boolean {
  for (const prefix of CORS_PATHS) if (url.startsWith(prefix)) return true;
  return false;
}

/**
 * Cross-origin access is open (`Access-Control-Allow-Origin: *`) on the tool API, the OpenAPI document,
 * the docs and the charts; preflight requests are answered here. Bearer tokens are not ambient
 * credentials, so the authenticated family is open the same way.
 */
export function toolApiCors(req: Request, res: Response, next: NextFunction): void {
  if (!isCorsPath(req.url)) {
    next();
    return;
  }
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED);
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
}
