import 'reflect-metadata';
import { runApp } from '@paper/nest-infra';
import { AppModule } from './app/app.module';
import { toolsGatewayConfigSchema } from './config/tools-gateway.config';
import { toolApiCors } from './tools/cors.middleware';

void runApp({
  name: 'tools-gateway',
  schema: toolsGatewayConfigSchema,
  module: (config) => AppModule.forRoot(config),
  configure: (app) => {
    app.use(toolApiCors);
  },
});
