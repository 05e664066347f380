import { type BodyRefusalResponder, respondInStyle } from '@paper/nest-infra';
import { OAUTH_ROUTES, providerRoute } from '../provider/provider-configuration';
import { renderErrorPage } from './page-layout';

const PROVIDER_ROUTES = new Set<string>(Object.values(OAUTH_ROUTES));
const envelope = respondInStyle('tool-envelope');

/**
 * Refused bodies and query strings in the shape each kind of path speaks: OAuth errors
 * (`{error, error_description}`) on the provider's endpoints, a page for a browser navigating, and the
 * envelope the pages' scripts read everywhere else.
 */
export const oauthBodyErrors: BodyRefusalResponder = (req, res, refusal) => {
  res.setHeader('Cache-Control', 'no-store');
  if (req.method === 'GET' && req.accepts(['json', 'html']) === 'html') {
    res.status(refusal.status).type('html').send(renderErrorPage('This request cannot continue', refusal.message));
    return;
  }
  if (PROVIDER_ROUTES.has(providerRoute(req.path))) {
    res.status(refusal.status).json({ error: 'invalid_request', error_description: refusal.message });
    return;
  }
  envelope(req, res, refusal);
};
