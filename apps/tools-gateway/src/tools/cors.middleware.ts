import { openCors } from '@paper/nest-infra';

const CORS_PATHS = ['/api/', '/openapi.json', '/.well-known/openapi.json', '/charts/', '/docs'] as const;

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
export const toolApiCors = openCors({
  methodsFor: (req) => (isCorsPath(req.url) ? 'GET, POST, OPTIONS' : undefined),
  allowHeaders: 'requested',
  exposeHeaders: 'Retry-After, WWW-Authenticate, X-Cache, Allow, X-Request-Id',
  maxAgeSeconds: 600,
});
