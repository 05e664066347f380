import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ErrorStyle } from '../errors/error-body';
import { GlobalExceptionFilter } from '../errors/global-exception.filter';
import { answerClientErrors } from '../http/client-errors';
import { survivesDependencyRejections } from '../errors/unhandled-outages';
import { type BodyRefusalResponder, installRequestBodies, respondInStyle } from '../http/request-bodies';
import { routeMethodsOf } from '../http/route-methods';
import { HealthRegistry } from '../health/health-registry';
import { createLogger, PinoNestLogger } from '../logging/logger';
import { requestLogger } from '../logging/request-logger';
import { httpMetrics, initMetrics } from '../metrics/metrics';

export interface BootstrapOptions {
  app: string;
  module: unknown;
  config: { PORT: number; HOST: string; TRUSTED_PROXIES: string[]; LOG_LEVEL: string; SHUTDOWN_GRACE_MS: number };
  errorStyle?: ErrorStyle;
  /** Express body size limit. */
  bodyLimit?: string;
  /** Path prefixes whose request bodies are left unread for a handler that reads them itself. */
  rawBodyPaths?: readonly string[];
  /** Path prefixes that also take HTML form posts; every other body must be JSON (415 otherwise). */
  formBodyPaths?: readonly string[];
  /** How refused bodies are answered (default: the app's error style). */
  bodyErrors?: BodyRefusalResponder;
  /** Extra wiring before listen (CORS, static files, raw routes). */
  configure?: (app: NestExpressApplication, logger: Logger) => void | Promise<void>;
}

export interface RunningApp {
  app: INestApplication;
  url: string;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * Starts an app the same way everywhere: JSON logs, request logs, metrics, the global error filter,
 * ordered shutdown on SIGTERM/SIGINT (readiness turns 503 and HTTP stops accepting; workers and HTTP
 * requests in flight finish; then PostgreSQL and Redis close; then exit).
 */
export async function bootstrapApp(options: BootstrapOptions): Promise<RunningApp> {
  const logger = createLogger(options.app, options.config.LOG_LEVEL);
  survivesDependencyRejections(logger);
  initMetrics(options.app);
  const app = await NestFactory.create<NestExpressApplication>(options.module as never, {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
  });
  app.disable('x-powered-by');
  // X-Forwarded-For names the client only when the peer is a configured proxy; otherwise the socket's
  // address is the client (a caller cannot pick its own rate-limit bucket by sending the header).
  app.set('trust proxy', options.config.TRUSTED_PROXIES.length > 0 ? options.config.TRUSTED_PROXIES : false);
  // While draining, every answer closes its keep-alive connection (those already being worked on too),
  // so clients move to another replica.
  let draining = false;
  const unanswered = new Set<ServerResponse>();
  const closeAfterAnswer = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  app.use((_req: unknown, res: ServerResponse, next: () => void) => {
    if (draining) {
      closeAfterAnswer(res);
    } else {
      unanswered.add(res);
      res.once('close', () => unanswered.delete(res));
    }
    next();
  });
  app.use(requestLogger(logger));
  app.use(httpMetrics());
  installRequestBodies(app, {
    limit: options.bodyLimit ?? '256kb',
    rawPaths: options.rawBodyPaths,
    formPaths: options.formBodyPaths,
    respond: options.bodyErrors ?? respondInStyle(options.errorStyle ?? 'tool-envelope'),
  });
  app.useGlobalFilters(new GlobalExceptionFilter(options.errorStyle ?? 'tool-envelope', logger, routeMethodsOf(app)));
  await options.configure?.(app, logger);
  await app.listen(options.config.PORT, options.config.HOST);
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server, options.errorStyle ?? 'tool-envelope');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.config.PORT;
  const url = `http://127.0.0.1:${port}`;
  logger.info({ url }, `${options.app} listening`);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // 1. Readiness turns 503 and HTTP stops accepting: idle keep-alive connections close now, busy
      //    ones after their answer (sent with `Connection: close`).
      app.get(HealthRegistry).markShuttingDown();
      draining = true;
      unanswered.forEach(closeAfterAnswer);
      server.close();
      server.closeIdleConnections();
      const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
      try {
        // 2. beforeApplicationShutdown: queue workers finish or hand back their jobs, background loops stop;
        //    then Nest waits for the last HTTP connection; 3. onApplicationShutdown: PostgreSQL and Redis close.
        await app.close();
      } finally {
        clearInterval(idleSweep);
      }
    })();
    return closing;
  };
  return { app, url, logger, close };
}

/** Wires SIGTERM/SIGINT to a graceful close with a hard deadline. */
export function exitOnSignals(running: RunningApp, graceMs: number): void {
  const onSignal = (signal: NodeJS.Signals) => {
    running.logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      running.logger.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, graceMs);
    deadline.unref();
    running
      .close()
      .then(() => {
        running.logger.info('stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        running.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
