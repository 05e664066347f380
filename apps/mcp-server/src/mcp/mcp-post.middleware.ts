import type { ArgumentsHost } from '@nestjs/common';
import type { GlobalExceptionFilter } from '@paper/nest-infra';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { McpController } from './mcp.controller';

/** The route label the request metrics give this path when the controller serves it. */
const ROUTE = Object.freeze({ path: '/mcp' });

/**
 * The hot path of MCP, ahead of the framework's router (as the tool API's cached GETs are): a POST /mcp
 * goes straight to the MCP controller after the request log, metrics, body, transport-security and CORS
 * middlewares, without the router's per-request work. An error it throws is answered by the app's global
 * exception filter, as it would be on the routed path. GET and DELETE /mcp take the routed path (405).
 */
export function mcpPostAheadOfRouter(controller: McpController, filter: GlobalExceptionFilter): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' || req.path !== '/mcp') return next();
    (req as { route?: unknown }).route = ROUTE;
    controller.post(req, res).catch((error: unknown) => filter.catch(error, httpHost(req, res)));
  };
}

function httpHost(req: Request, res: Response): ArgumentsHost {
  const http = { getRequest: () => req, getResponse: () => res, getNext: () => undefined };
  return { switchToHttp: () => http } as unknown as ArgumentsHost;
}
