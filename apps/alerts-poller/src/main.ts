import 'reflect-metadata';
import { runApp } from '@paper/nest-infra';
import { AppModule } from './app/app.module';
import { alertsPollerConfigSchema } from './config/alerts-poller.config';

void runApp({
  name: 'alerts-poller',
  schema: alertsPollerConfigSchema,
  module: (config) => AppModule.forRoot(config),
  errorStyle: 'alerts',
});
