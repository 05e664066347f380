import { clientIp } from '@paper/nest-infra';
import type { NextFunction, Request, Response } from 'express';
import { OAUTH_ROUTES, providerRoute } from '../provider/provider-configuration';
import { RateLimitError } from './rate-limit.exception';
import type { RateLimitedAction, RateLimitService } from './rate-limit.service';

/** The probes Kubernetes and Prometheus call; never limited. */
const PROBES = new Set(['/livez', '/readyz', '/metrics']);

/**
 * Limits every request per client IP, and POST /register once more by its own limit; over a limit the
 * answer is 429 with Retry-After in the OAuth error format (pages included: their scripts read it).
 */
export function limitRequests(limiter: RateLimitService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (PROBES.has(req.path)) return next();
    const ip = clientIp(req);
    const registration = providerRoute(req.path) === OAUTH_ROUTES.registration && req.method === 'POST';
    const take = (action: RateLimitedAction) => limiter.take(action, ip);
    (registration ? take('request').then(() => take('register')) : take('request')).then(
      () => next(),
      (error: unknown) => {
        if (!(error instanceof RateLimitError)) return next(error);
        res.setHeader('Retry-After', String(error.retryAfterSeconds));
        res.setHeader('Cache-Control', 'no-store');
        res.status(429).json({ error: error.code, error_description: error.message });
      },
    );
  };
}
