import 'reflect-metadata';
import { runApp } from '@paper/nest-infra';
import { AppModule } from './app/app.module';
import { tradingExecutorConfigSchema } from './config/trading-executor.config';

void runApp({
  name: 'trading-executor',
  schema: tradingExecutorConfigSchema,
  module: (config) => AppModule.forRoot(config),
});
