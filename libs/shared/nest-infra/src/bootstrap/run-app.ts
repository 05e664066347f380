import type { DynamicModule } from '@nestjs/common';
import type { z } from 'zod';
import { loadConfigOrExit } from '../config/load-config';
import { type BootstrapOptions, bootstrapApp, exitOnSignals, type RunningApp } from './bootstrap-app';

type AppSchema = z.ZodType<{
  PORT: number;
  HOST: string;
  TRUSTED_PROXIES: string[];
  LOG_LEVEL: string;
  SHUTDOWN_GRACE_MS: number;
}>;

export interface RunAppOptions<S extends AppSchema> extends Omit<BootstrapOptions, 'module' | 'config' | 'app'> {
  name: string;
  schema: S;
  module: (config: z.infer<S>) => DynamicModule;
}

/** The whole `main.ts` of an app: validate config (exit 78 naming the variable), boot, handle signals. */
export async function runApp<S extends AppSchema>(
  options: RunAppOptions<S>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningApp> {
  const config = loadConfigOrExit(options.name, options.schema, env);
  const running = await bootstrapApp({ ...options, app: options.name, config, module: options.module(config) });
  exitOnSignals(running, config.SHUTDOWN_GRACE_MS);
  return running;
}
