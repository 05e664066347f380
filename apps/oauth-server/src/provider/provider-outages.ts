import { isDependencyOutage, OUTAGE_RETRY_AFTER_SECONDS } from '@paper/nest-infra';
import type Provider from 'oidc-provider';

interface OutageContext {
  state: { dependencyOutage?: boolean };
  status: number;
  body: unknown;
  set(name: string, value: string): void;
}

/**
 * oidc-provider answers 500 server_error for whatever its storage throws. When that is a PostgreSQL or
 * Redis outage, the answer is instead 503 `temporarily_unavailable` (the OAuth error code for it) with
 * Retry-After, so clients retry instead of giving up; HTML error pages keep their page with the status.
 */
export function answerOutagesAsUnavailable(provider: Provider, log: (message: string) => void): void {
  provider.on('server_error', (ctx: OutageContext, error: Error) => {
    if (!isDependencyOutage(error)) return;
    ctx.state.dependencyOutage = true;
    log(`storage unavailable: ${error.message}`);
  });
  provider.use(async (ctx: OutageContext, next: () => Promise<void>) => {
    await next();
    if (!ctx.state.dependencyOutage) return;
    ctx.status = 503;
    ctx.set('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
    if (typeof ctx.body !== 'string') {
      ctx.body = {
        error: 'temporarily_unavailable',
        error_description: 'The authorization server could not reach its storage just now; retry shortly.',
      };
    }
  });
}
