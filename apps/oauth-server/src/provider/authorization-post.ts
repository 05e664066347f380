import { unstorableTextMessage, unstorableTextPath } from '@paper/nest-infra';
import { type NextFunction, type Request, type Response, urlencoded } from 'express';
import { sendOAuthError } from './oauth-error-response';
import { OAUTH_ROUTES, providerRoute } from './provider-configuration';

const FORM = 'application/x-www-form-urlencoded';
/** oidc-provider's own limit on the bodies it reads. */
const FORM_LIMIT = '56kb';
const readForm = urlencoded({ extended: false, limit: FORM_LIMIT, type: FORM });

/**
 * OpenID Connect Core 3.1.2.1: the authorization endpoint takes its parameters by GET (query string) and
 * by POST (form body). A POST is handed to the provider as the GET request with the form's parameters as
 * its query, so both run the same checks and the same consent. (oidc-provider's own POST support needs
 * `SameSite=None` session cookies, which this server does not use.) A body of another type gets 415, one
 * over 56 KB 413, text PostgreSQL cannot store 400: OAuth error bodies.
 */
export function acceptAuthorizationPosts(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'POST' || providerRoute(req.path) !== OAUTH_ROUTES.authorization) return next();
  if (!req.is(FORM)) {
    sendOAuthError(
      res,
      415,
      'The authorization endpoint takes its parameters in the query string (GET) or in a form body (POST with ' +
        '"Content-Type: application/x-www-form-urlencoded").',
    );
    return;
  }
  readForm(req, res, (error: unknown) => {
    if (error) {
      const tooLarge = (error as { type?: string }).type === 'entity.too.large';
      sendOAuthError(
        res,
        tooLarge ? 413 : 400,
        tooLarge
          ? `The form body is too large: at most ${FORM_LIMIT.toUpperCase()}.`
          : 'The form body could not be read.',
      );
      return;
    }
    const form = (req.body ?? {}) as Record<string, string | string[]>;
    const unstorable = unstorableTextPath(form);
    if (unstorable !== undefined) {
      sendOAuthError(res, 400, unstorableTextMessage(unstorable));
      return;
    }
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(form))
      for (const one of Array.isArray(value) ? value : [value]) query.append(name, one);
    req.method = 'GET';
    req.url = `${OAUTH_ROUTES.authorization}?${query.toString()}`;
    next();
  });
}
