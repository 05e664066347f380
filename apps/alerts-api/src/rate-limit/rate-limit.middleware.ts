import { AlertsErrorCode } from '@paper/contracts';
import { JSON_RPC, errorBody, jsonRpcErrorBody } from '@paper/nest-infra';
import type { NextFunction, Request, Response } from 'express';
import type { AlertsRateLimits } from './alerts-rate-limits';

/**
 * Applies the per-caller limits before a request reaches its handler: over a limit, 429 with Retry-After
 * as `{ code: "rate_limited", message }` (a JSON-RPC error on /mcp). An answer of 401 marks the address
 * (see AlertsRateLimits.tokenRefused).
 */
export function limitRequests(limits: AlertsRateLimits) {
  return (req: Request, res: Response, next: NextFunction): void => {
    limits.check(req).then((refusal) => {
      if (!refusal) {
        if (req.headers.authorization !== undefined)
          res.once('finish', () => {
            if (res.statusCode === 401) limits.tokenRefused(req);
          });
        return next();
      }
      res.setHeader('Retry-After', String(refusal.limited.retryAfterSeconds));
      res.setHeader('Cache-Control', 'no-store');
      res
        .status(429)
        .json(
          req.path === '/mcp'
            ? jsonRpcErrorBody(JSON_RPC.serverError, refusal.message, { code: AlertsErrorCode.RateLimited })
            : errorBody('alerts', AlertsErrorCode.RateLimited, refusal.message),
        );
    }, next);
  };
}
