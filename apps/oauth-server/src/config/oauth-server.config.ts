import { baseEnvShape, databaseEnvShape, env, redisEnvShape } from '@paper/nest-infra';
import { DEV_SESSION_KEY_ENCRYPTION_KEY } from '@paper/session-key-vault';
import { z } from 'zod';

const jwks = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return undefined;
    try {
      const parsed = JSON.parse(value) as { keys?: unknown };
      if (!Array.isArray(parsed.keys) || parsed.keys.length === 0) throw new Error('no keys');
      const keys = parsed.keys as Record<string, unknown>[];
      if (!keys.every((k) => k['kty'] === 'EC' && k['crv'] === 'P-256' && typeof k['d'] === 'string')) {
        throw new Error('every key must be a private EC P-256 JWK');
      }
      return { keys };
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a JSON JWKS of private ES256 keys (${(error as Error).message})`,
      });
      return z.NEVER;
    }
  });

/** Every environment variable oauth-server reads, validated at start-up. */
export const oauthServerConfigSchema = z
  .object({
    ...baseEnvShape,
    ...databaseEnvShape,
    ...redisEnvShape,
    PORT: env.port(3003).describe('HTTP port (API, probes and /metrics).'),
    PUBLIC_BASE_URL: env
      .baseUrl('http://localhost:8080')
      .describe(
        'The one public base URL: token issuer, authorization server, and `{base}/mcp` is the MCP resource (token ' +
          'audience).',
      ),
    OAUTH_JWKS: jwks.describe(
      'Private ES256 signing keys as a JSON JWKS; the first signs, all are published. Required in production; ' +
        'generated once and kept in the database in development.',
    ),
    OAUTH_ACCESS_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(10)
      .max(3600)
      .default(900)
      .describe('Lifetime (seconds) of the access tokens oauth-server issues (`expires_in`), 10 to 3600.'),
    RATE_LIMIT_REQUESTS_PER_SECOND: env
      .positiveInt(20)
      .describe(
        'Requests per second per client IP to every endpoint and page of the authorization server (probes and static ' +
          'assets aside), shared by every replica (Redis); more get 429 with Retry-After.',
      ),
    RATE_LIMIT_REQUESTS_BURST: env
      .positiveInt(60)
      .describe('Burst of requests per client IP to the authorization server (a page load with its API calls).'),
    RATE_LIMIT_REGISTER_PER_MINUTE: env
      .positiveInt(20)
      .describe(
        'Client registrations (POST /register) accepted per client IP per minute (a token bucket: all at once, then ' +
          'one every 60/N s), shared by every replica (Redis); more get 429 with Retry-After.',
      ),
    OAUTH_CIMD_PRIVATE_HOSTS: env
      .list()
      .describe(
        'host:port entries whose client ID metadata documents may be fetched from loopback or private addresses ' +
          '(development and tests only; every other document host must resolve to a public address).',
      ),
    RATE_LIMIT_SIGN_IN_PER_MINUTE: env
      .positiveInt(30)
      .describe(
        "Wallet sign-in messages (the consent and connections pages' challenge endpoints) issued per client IP per " +
          'minute (a token bucket: all at once, then one every 60/N s), shared by every replica (Redis).',
      ),
    OAUTH_COOKIE_KEYS: env
      .list()
      .describe(
        "Secrets signing the authorization server's cookies, comma-separated, newest first. Required in production; " +
          'generated in development.',
      ),
    SESSION_KEY_ENCRYPTION_KEY: z
      .string()
      .min(32)
      .default(DEV_SESSION_KEY_ENCRYPTION_KEY)
      .describe(
        'Encrypts (AES-256-GCM) the session-key private keys oauth-server generates: 32 bytes as hex or base64, or a ' +
          'passphrase of at least 32 characters. tools-gateway and mcp-server decrypt them with the same value. ' +
          'Required in production.',
      ),
    SESSION_KEY_ENCRYPTION_KEYS_OLD: env
      .list()
      .describe('Earlier session-key encryption keys, comma-separated, still accepted for decryption.'),
    SESSION_KEY_REGISTRATION_TIMEOUT_MS: env
      .positiveInt(20000)
      .describe('How long (ms) approving on the consent page waits for the exchange to register the new session key.'),
    SESSION_KEY_REVOCATION_WAIT_MS: env
      .positiveInt(5000)
      .describe(
        'How long (ms) revoking a key or a connection on /connections waits for the exchange to confirm the key ' +
          'revoked; past it the page answers 503 with Retry-After and the revocation completes in the background ' +
          '(recorded in PostgreSQL, re-sent until the exchange confirms).',
      ),
    EXECUTOR_INTERNAL_URL: env
      .baseUrl('http://127.0.0.1:3004')
      .describe(
        "trading-executor's internal URL: the consent page's faucet button calls its paper-mode funding endpoints.",
      ),
    PAPER_MODE: env
      .bool(true)
      .describe('Paper mode: the consent page offers to fund the wallet with test USDC from the faucet.'),
    PAPER_FAUCET_USDC: z
      .string()
      .regex(/^\d+(\.\d{1,6})?$/)
      .default('1000')
      .describe('Test USDC the faucet button credits to the wallet and deposits on the exchange (paper mode).'),
  })
  .superRefine((config, ctx) => {
    if (config.NODE_ENV !== 'production') return;
    if (config.SESSION_KEY_ENCRYPTION_KEY === DEV_SESSION_KEY_ENCRYPTION_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_KEY_ENCRYPTION_KEY'],
        message: 'set a real key in production (the development default is refused)',
      });
    }
    if (!config.OAUTH_JWKS) {
      ctx.addIssue({
        code: 'custom',
        path: ['OAUTH_JWKS'],
        message: 'required in production (JSON JWKS with private ES256 keys)',
      });
    }
    if (config.OAUTH_COOKIE_KEYS.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['OAUTH_COOKIE_KEYS'],
        message: 'required in production (comma-separated random secrets)',
      });
    }
  });

export type OauthServerConfig = z.infer<typeof oauthServerConfigSchema>;
