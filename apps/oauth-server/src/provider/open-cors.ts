import type { NextFunction, Request, Response } from 'express';
import { OAUTH_ROUTES, providerRoute } from './provider-configuration';

/** Public documents and open registration: any origin may read them (`*`, never an echoed Origin). */
const OPEN_PATHS: Record<string, string> = {
  '/.well-known/oauth-authorization-server': 'GET, HEAD, OPTIONS',
  '/.well-known/openid-configuration': 'GET, HEAD, OPTIONS',
  [OAUTH_ROUTES.jwks]: 'GET, HEAD, OPTIONS',
  [OAUTH_ROUTES.registration]: 'POST, OPTIONS',
};

/**
 * `Access-Control-Allow-Origin: *` on the metadata, the JWKS and registration, with preflights answered
 * here. oidc-provider keeps headers that are already set, so it does not echo the Origin on these paths.
 */
export function openCors(req: Request, res: Response, next: NextFunction): void {
  const methods = OPEN_PATHS[providerRoute(req.path)];
  if (!methods) return next();
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', methods);
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization');
  res.setHeader('Access-Control-Max-Age', '3600');
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  next();
}
