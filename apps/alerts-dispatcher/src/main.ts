import 'reflect-metadata';
import { runApp } from '@paper/nest-infra';
import { AppModule } from './app/app.module';
import { alertsDispatcherConfigSchema } from './config/alerts-dispatcher.config';

void runApp({
  name: 'alerts-dispatcher',
  schema: alertsDispatcherConfigSchema,
  module: (config) => AppModule.forRoot(config),
  errorStyle: 'alerts',
});
