import 'reflect-metadata';
import { APP_CONFIG, runApp } from '@paper/nest-infra';
import type { Express, Request, Response } from 'express';
import { AppModule } from './app/app.module';
import { buildOpenApiDocument } from './app/openapi';
import { type AlertsApiConfig, alertsApiConfigSchema } from './config/alerts-api.config';

void runApp({
  name: 'alerts-api',
  schema: alertsApiConfigSchema,
  module: (config) => AppModule.forRoot(config),
  errorStyle: 'alerts',
  configure: (app) => {
    const config = app.get<AlertsApiConfig>(APP_CONFIG);
    const document = buildOpenApiDocument(app, config.ALERTS_BASE_URL);
    (app.getHttpAdapter().getInstance() as Express).get('/openapi.json', (_req: Request, res: Response) => {
      res.json(document);
    });
  },
});
