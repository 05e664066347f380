import { openCors as openCorsFor } from '@paper/nest-infra';
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
export const openCors = openCorsFor({
  methodsFor: (req) => OPEN_PATHS[providerRoute(req.path)],
  allowHeaders: 'Content-Type, Authorization',
  maxAgeSeconds: 3600,
});
