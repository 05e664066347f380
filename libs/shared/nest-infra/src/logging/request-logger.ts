import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

const QUIET_PATHS = new Set(['/livez', '/readyz', '/metrics']);

/** One JSON line per HTTP request (probes and scrapes are logged at debug only). */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    customLogLevel: (req, res, err) => {
      if (QUIET_PATHS.has(req.url ?? '')) return 'debug';
      if (err || res.statusCode >= 500) return 'error';
      return res.statusCode >= 400 ? 'warn' : 'info';
    },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: redactUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  }) as unknown as RequestHandler;
}

function redactUrl(url: string): string {
  return url.replace(/(webhooks\/\d+\/)[^/?]+/g, '$1[redacted]').replace(/([?&](?:token|code|secret)=)[^&]+/gi, '$1[redacted]');
}
