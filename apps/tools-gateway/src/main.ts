import 'reflect-metadata';
import { runApp } from '@paper/nest-infra';
import { AppModule } from './app/app.module';
import { toolsGatewayConfigSchema } from './config/tools-gateway.config';
import { cachedPublicGet } from './tools/cached-get.middleware';
import { toolApiCors } from './tools/cors.middleware';
import { RestToolCalls } from './tools/rest-tool-calls.service';

void runApp({
  name: 'tools-gateway',
  schema: toolsGatewayConfigSchema,
  module: (config) => AppModule.forRoot(config),
  configure: (app) => {
    app.use(toolApiCors);
    app.use(cachedPublicGet(app.get(RestToolCalls)));
  },
});
