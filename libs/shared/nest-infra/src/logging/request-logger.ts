import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

/** The response header (and accepted request header) that carries a request's id. */
export const REQUEST_ID_HEADER = 'X-Request-Id';
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request: the caller's `X-Request-Id` when it is a short token (a proxy or client that
 * traces its calls), else a new UUID. It is echoed in the response header, on the request's log line and
 * on the log line of any server error, so a user's report can be found in the logs.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && CALLER_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The id assigned to a request by the request logger (undefined before it ran). */
export function requestIdOf(req: unknown): string | undefined {
  const id = (req as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
}

const QUIET_PATHS = new Set(['/livez', '/readyz', '/metrics']);

/** One JSON line per HTTP request (probes and scrapes are logged at debug only). */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: assignRequestId,
    customLogLevel: (req, res, err) => {
      if (QUIET_PATHS.has(req.url ?? '')) return 'debug';
      if (err || res.statusCode >= 500) return 'error';
      return res.statusCode >= 400 ? 'warn' : 'info';
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  }) as unknown as RequestHandler;
}

function redactUrl(url: string): string {
  return url
    .replace(/(webhooks\/\d+\/)[^/?]+/g, '$1[redacted]')
    .replace(/([?&](?:token|code|secret)=)[^&]+/gi, '$1[redacted]');
}
