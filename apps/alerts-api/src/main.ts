import 'reflect-metadata';
import { APP_CONFIG, mcpTransportSecurity, respondInStyle, respondJsonRpc, runApp } from '@paper/nest-infra';
import type { Express, NextFunction, Request, Response } from 'express';
import { AppModule } from './app/app.module';
import { buildOpenApiDocument } from './app/openapi';
import { type AlertsApiConfig, alertsApiConfigSchema } from './config/alerts-api.config';
import { AlertsRateLimits } from './rate-limit/alerts-rate-limits';
import { limitRequests } from './rate-limit/rate-limit.middleware';

const alertsErrors = respondInStyle('alerts');

void runApp({
  name: 'alerts-api',
  schema: alertsApiConfigSchema,
  module: (config) => AppModule.forRoot(config),
  errorStyle: 'alerts',
  // Refused bodies are answered as JSON-RPC errors on the MCP endpoint, as `{ code, message }` elsewhere.
  bodyErrors: (req, res, refusal) => (req.path === '/mcp' ? respondJsonRpc : alertsErrors)(req, res, refusal),
  configure: (app) => {
    const config = app.get<AlertsApiConfig>(APP_CONFIG);
    // Account data and secrets (the account token, webhook signing secrets) are never stored by caches;
    // the exchange proxy passes on the exchange's own caching.
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (!req.path.startsWith('/api/upstream/')) res.setHeader('Cache-Control', 'no-store');
      next();
    });
    app.use(
      mcpTransportSecurity({
        publicBaseUrl: config.ALERTS_BASE_URL,
        allowedOrigins: config.MCP_ALLOWED_ORIGINS,
        development: config.NODE_ENV !== 'production',
      }),
    );
    // Every caller bounded: per client address, per account (docs/alerts-api.md, "Rate limits"); after the
    // Host and Origin checks, whose refusals cost nothing.
    app.use(limitRequests(app.get(AlertsRateLimits)));
    const document = buildOpenApiDocument(app, config.ALERTS_BASE_URL);
    (app.getHttpAdapter().getInstance() as Express).get('/openapi.json', (_req: Request, res: Response) => {
      res.json(document);
    });
  },
});
