import { clientIp } from '@paper/nest-infra';
import type { NextFunction, Request, Response } from 'express';
import { OAUTH_ROUTES, providerRoute } from '../provider/provider-configuration';
import { RateLimitError } from './rate-limit.exception';
import type { RateLimitService } from './rate-limit.service';

/** Limits POST /register per client IP; over the limit answers 429 with Retry-After in the OAuth error format. */
export function limitRegistrations(limiter: RateLimitService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (providerRoute(req.path) !== OAUTH_ROUTES.registration || req.method !== 'POST') return next();
    limiter.take('register', clientIp(req)).then(
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
