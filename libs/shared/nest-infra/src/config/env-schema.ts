import { isIP } from 'node:net';
import { z } from 'zod';

/** Names Express accepts for address ranges in `trust proxy`. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address (`10.0.0.7`, `::1`), a CIDR range (`10.0.0.0/8`) or a named range (`loopback`). */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const prefix = Number(bits);
  return /^\d+$/.test(bits) && prefix <= (family === 4 ? 32 : 128);
}

/** Building blocks for per-app config schemas. Every app composes its own schema from these. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  url: (fallback?: string) => (fallback === undefined ? z.url() : z.url().default(fallback)),
  postgresUrl: () =>
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL')
      .default('postgres://postgres@127.0.0.1:5432/paper'),
  redisUrl: () =>
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .default('redis://127.0.0.1:6379'),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  nodeEnv: () => z.enum(['development', 'test', 'production']).default('development'),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
  positiveInt: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  text: (fallback: string) => z.string().min(1).default(fallback),
  /** A URL without trailing slashes, so paths can be appended. */
  baseUrl: (fallback: string) =>
    z
      .url()
      .default(fallback)
      .transform((v) => v.replace(/\/+$/, '')),
  /** A comma-separated list (empty by default). */
  list: () =>
    z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
};

/** The variables every app shares. */
export const baseEnvShape = {
  NODE_ENV: env.nodeEnv().describe('development, test or production (production refuses development secrets).'),
  LOG_LEVEL: env.logLevel().describe('pino log level of the JSON logs.'),
  HOST: z.string().default('0.0.0.0').describe('Interface the HTTP server listens on.'),
  TRUSTED_PROXIES: env
    .list()
    .refine((entries) => entries.every(isProxyEntry), {
      message: 'each entry must be an IP address, a CIDR range (10.0.0.0/8) or loopback, linklocal, uniquelocal',
    })
    .describe(
      'Comma-separated addresses or CIDR ranges of the reverse proxies in front of the app (the Ingress controller, ' +
        "the local edge); only a peer in this list may name the client's address in X-Forwarded-For. Empty (the " +
        "default): the socket's address is the client, whatever the header says.",
    ),
  SHUTDOWN_GRACE_MS: env
    .positiveInt(20000)
    .describe(
      'On SIGTERM, how long (ms) HTTP requests and queue jobs in flight may take to finish before the process ' +
        'exits anyway (PostgreSQL and Redis close after them).',
    ),
};

export const redisEnvShape = {
  REDIS_URL: env.redisUrl().describe('Redis for queues, prices, quotes, caches and rate limits.'),
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9:_-]+$/i)
    .default('paper')
    .describe(
      'Prefix of every Redis key and BullMQ queue (<prefix>:bull:<queue>); lets several stacks share one Redis.',
    ),
  REDIS_COMMAND_TIMEOUT_MS: env
    .positiveInt(1000)
    .describe(
      'Longest wait (ms) for a Redis command of a request path once sent; while Redis is unreachable such commands ' +
        'fail at once, so requests answer 503 (502 on the tool API) instead of waiting. Queue workers wait out ' +
        'outages instead.',
    ),
};

export const databaseEnvShape = {
  DATABASE_URL: env
    .postgresUrl()
    .describe('PostgreSQL connection URL; each app uses only the schema it owns or reads.'),
  DATABASE_POOL_SIZE: env.positiveInt(10).describe("Connections in the app's PostgreSQL pool."),
};
