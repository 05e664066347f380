import 'reflect-metadata';
import { runApp } from '@paper/nest-infra';
import { AppModule } from './app/app.module';
import { configureHttp, OAUTH_FORM_PATHS, OAUTH_RAW_BODY_PATHS } from './app/configure-http';
import { oauthServerConfigSchema } from './config/oauth-server.config';
import { oauthBodyErrors } from './pages/body-refusals';

void runApp({
  name: 'oauth-server',
  schema: oauthServerConfigSchema,
  module: (config) => AppModule.forRoot(config),
  errorStyle: 'tool-envelope',
  rawBodyPaths: OAUTH_RAW_BODY_PATHS,
  formBodyPaths: OAUTH_FORM_PATHS,
  bodyErrors: oauthBodyErrors,
  configure: configureHttp,
});
