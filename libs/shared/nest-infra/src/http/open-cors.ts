import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Where cross-origin access is open to any origin, and how its preflights are answered. */
export interface OpenCorsPolicy {
  /** The methods a request's path admits cross-origin, or undefined when the path is not open. */
  methodsFor(req: Request): string | undefined;
  /** Request headers a preflight may announce: a fixed list, or `requested` to admit what it asks for. */
  allowHeaders: string | 'requested';
  /** Response headers scripts may read. */
  exposeHeaders?: string;
  maxAgeSeconds: number;
}

/**
 * `Access-Control-Allow-Origin: *` (never an echoed Origin) on the open paths, with preflight requests
 * answered here (204). Bearer tokens are not ambient credentials, so `*` is safe for them too.
 */
export function openCors(policy: OpenCorsPolicy): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const methods = policy.methodsFor(req);
    if (methods === undefined) return next();
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (policy.exposeHeaders) res.setHeader('Access-Control-Expose-Headers', policy.exposeHeaders);
    if (req.method !== 'OPTIONS') return next();
    const requested = req.headers['access-control-request-headers'];
    res.setHeader('Access-Control-Allow-Methods', methods);
    res.setHeader(
      'Access-Control-Allow-Headers',
      policy.allowHeaders === 'requested' ? (requested ?? 'Authorization, Content-Type') : policy.allowHeaders,
    );
    res.setHeader('Access-Control-Max-Age', String(policy.maxAgeSeconds));
    res.status(204).end();
  };
}
