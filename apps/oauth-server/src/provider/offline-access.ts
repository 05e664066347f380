import type Provider from 'oidc-provider';
import { SCOPES } from '@paper/contracts';

/**
 * oidc-provider drops `offline_access` from an authorization request unless it carries `prompt=consent`.
 * This server shows the consent page for every authorization request anyway (one new session key per
 * connection), so a request asking for `offline_access` without a prompt is read as `prompt=consent` and
 * the scope is kept. (Refresh tokens do not depend on it: see issueRefreshToken.)
 */
export function treatOfflineAccessAsConsent(provider: Provider, authorizationPath: string): void {
  provider.use(async (ctx, next) => {
    if (ctx.path === authorizationPath && ctx.method === 'GET') {
      const query = new URLSearchParams(ctx.querystring);
      if (!query.has('prompt') && (query.get('scope') ?? '').split(' ').includes(SCOPES.offline)) {
        query.set('prompt', 'consent');
        ctx.querystring = query.toString();
      }
    }
    await next();
  });
}
