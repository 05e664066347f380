import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import path from 'node:path';
import { ASSETS_PATH } from '../pages/page-layout';
import { acceptAuthorizationPosts } from '../provider/authorization-post';
import { refuseWrongMethods } from '../provider/endpoint-methods';
import { OidcProviderService } from '../provider/oidc-provider.service';
import { openCors } from '../provider/open-cors';
import { OAUTH_ROUTES } from '../provider/provider-configuration';
import { limitRequests } from '../rate-limit/rate-limit.middleware';
import { RateLimitService } from '../rate-limit/rate-limit.service';

/** oidc-provider reads these request bodies itself (the authorization endpoint's form posts: authorization-post.ts). */
export const OAUTH_RAW_BODY_PATHS = [
  OAUTH_ROUTES.authorization,
  OAUTH_ROUTES.token,
  OAUTH_ROUTES.registration,
  OAUTH_ROUTES.revocation,
];
/** The pages' plain HTML forms (deny, revoke, sign out) post form bodies; every other page endpoint takes JSON. */
export const OAUTH_FORM_PATHS = ['/interaction', '/connections'];

const PAGE_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri " +
    "'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * Static assets (local only), security headers of the pages, open CORS on metadata and registration, the
 * per-client-IP rate limits, 405 for other methods on the OAuth endpoints, form posts to the authorization
 * endpoint, and the OAuth endpoints of oidc-provider.
 */
export function configureHttp(app: NestExpressApplication): void {
  app.useStaticAssets(path.join(__dirname, '..', 'assets'), { prefix: `${ASSETS_PATH}/`, maxAge: '5m', index: false });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path.startsWith('/interaction/') || req.path === '/connections' || req.path.startsWith('/connections/')) {
      for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) res.setHeader(name, value);
    }
    next();
  });
  app.use(openCors);
  app.use(limitRequests(app.get(RateLimitService)));
  app.use(refuseWrongMethods);
  app.use(acceptAuthorizationPosts);
  app.use(app.get(OidcProviderService).middleware());
}
