import type { NextFunction, Request, Response } from 'express';
import type Provider from 'oidc-provider';
import { sendOAuthError } from './oauth-error-response';
import { OAUTH_ROUTES, providerRoute } from './provider-configuration';

/**
 * The methods of each OAuth endpoint (`OPTIONS`: CORS preflights, answered by open-cors.ts or, on the
 * token and revocation endpoints, by oidc-provider). `GET` includes `HEAD`.
 */
export const ENDPOINT_METHODS: Readonly<Record<string, string>> = {
  [OAUTH_ROUTES.authorization]: 'GET, HEAD, POST',
  [OAUTH_ROUTES.token]: 'POST, OPTIONS',
  [OAUTH_ROUTES.registration]: 'POST, OPTIONS',
  [OAUTH_ROUTES.revocation]: 'POST, OPTIONS',
  [OAUTH_ROUTES.jwks]: 'GET, HEAD, OPTIONS',
  '/.well-known/oauth-authorization-server': 'GET, HEAD, OPTIONS',
  '/.well-known/openid-configuration': 'GET, HEAD, OPTIONS',
};

/**
 * Another method on an OAuth endpoint: 405 with `Allow` and an OAuth error body (not oidc-provider's plain-text 404).
 */
export function refuseWrongMethods(req: Request, res: Response, next: NextFunction): void {
  const route = providerRoute(req.path);
  const allow = ENDPOINT_METHODS[route];
  if (allow === undefined || allow.split(', ').includes(req.method)) return next();
  sendOAuthError(res, 405, `${req.method.slice(0, 20)} is not allowed on ${route}: it takes ${allow}.`, {
    Allow: allow,
  });
}

/** A path under the provider's endpoints that none of them serves: 404 with an OAuth error body, not plain text. */
export function answerUnknownPathsInOAuthShape(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    ctx.status = 404;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      error: 'invalid_request',
      error_description: `There is no OAuth endpoint at ${ctx.path.slice(0, 200)}; the authorization server's metadata (/.well-known/oauth-authorization-server) lists them.`,
    };
  });
}
