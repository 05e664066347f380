import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RestToolCalls } from './rest-tool-calls.service';

const PREFIX = '/api/v1/tools/';
/** The route label the request metrics give this path when the controller serves it. */
const ROUTE = Object.freeze({ path: '/api/v1/tools/:name' });

/**
 * The hot path of the public family, ahead of the framework's router: a GET /api/v1/tools/{name} whose
 * answer is in this replica's cache copy is sent from here (after the request log, metrics and CORS
 * middlewares, before route matching). Everything else continues to PublicToolsController, which
 * serves the same answer through the full path.
 */
export function cachedPublicGet(calls: RestToolCalls): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' && req.url.startsWith(PREFIX) && calls.tryServeCached(req, res)) {
      (req as { route?: unknown }).route = ROUTE;
      return;
    }
    next();
  };
}
