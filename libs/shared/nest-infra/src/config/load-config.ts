import { z } from 'zod';

export class ConfigValidationError extends Error {
  constructor(
    readonly app: string,
    readonly problems: readonly string[],
  ) {
    super(`${app}: invalid configuration\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigValidationError';
  }
}

/** Parses the environment against one app's schema; names every bad or missing variable. */
export function loadConfig<S extends z.ZodType>(
  app: string,
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) {
    return result.data;
  }
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const value = issue.path.length === 1 ? env[String(issue.path[0])] : undefined;
    const state = value === undefined ? 'missing' : `invalid value ${JSON.stringify(redact(name, value))}`;
    return `${name}: ${state}: ${issue.message}`;
  });
  throw new ConfigValidationError(app, problems);
}

/** Loads the config or prints the problems and exits non-zero: the start-up path of every app. */
export function loadConfigOrExit<S extends z.ZodType>(
  app: string,
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  try {
    return loadConfig(app, schema, env);
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(
        `${JSON.stringify({ level: 'fatal', app, msg: 'invalid configuration', problems: error.problems })}\n` +
          `${error.message}\n`,
      );
      process.exit(78);
    }
    throw error;
  }
}

function redact(name: string, value: string): string {
  return /SECRET|KEY|TOKEN|PASSWORD/i.test(name) ? '***' : value;
}
