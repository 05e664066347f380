import { QUOTE_VALIDITY_SECONDS } from '@paper/contracts';
import { env, type RateLimit } from '@paper/nest-infra';
import { DEV_SESSION_KEY_ENCRYPTION_KEY } from '@paper/session-key-vault';
import type { UpstreamConfig } from '@paper/upstream';
import { z } from 'zod';
import type { ToolsRuntimeOptions } from './runtime-options';

/**
 * The environment variables of the tool runtime, shared by the apps that host it (tools-gateway for REST,
 * mcp-server for MCP) so both transports are configured alike.
 */
export const toolsRuntimeEnvShape = {
  OAUTH_INTERNAL_URL: env
    .baseUrl('http://127.0.0.1:3003')
    .describe("oauth-server's internal URL; its JWKS verifies access tokens."),
  OAUTH_JWKS_URL: z.url().optional().describe('JWKS URL of the token issuer (default: OAUTH_INTERNAL_URL/jwks).'),
  SESSION_KEY_ENCRYPTION_KEY: z
    .string()
    .min(32)
    .default(DEV_SESSION_KEY_ENCRYPTION_KEY)
    .describe('Decrypts session-key private keys written by oauth-server (same value as there).'),
  SESSION_KEY_ENCRYPTION_KEYS_OLD: env
    .list()
    .describe('Earlier session-key encryption keys, comma-separated, still accepted for decryption.'),
  QUOTE_TTL_SECONDS: env
    .positiveInt(QUOTE_VALIDITY_SECONDS)
    .describe('Validity of a preview_trade quote (seconds); the tool descriptions state the default.'),
  INTENT_WAIT_MS: env
    .positiveInt(10000)
    .describe('How long a trading tool waits for the executor before reporting the intent as pending (ms).'),
  PRICE_MAX_AGE_MS: env.positiveInt(15000).describe('A live price older than this (ms) refuses previews and opens.'),
  RATE_LIMIT_PUBLIC_PER_SECOND: env
    .positiveInt(20)
    .describe('Requests per second per client IP without a token (REST tool calls; every POST /mcp).'),
  RATE_LIMIT_PUBLIC_BURST: env.positiveInt(40).describe('Burst of requests per client IP without a token.'),
  RATE_LIMIT_ME_PER_SECOND: env
    .positiveInt(20)
    .describe('Requests per second per connected wallet and client (both transports share the bucket).'),
  RATE_LIMIT_ME_BURST: env.positiveInt(40).describe('Burst of requests per connected wallet and client.'),
};

/** The per-caller limits of both tool hosts: per client IP without a token, per wallet and client with one. */
export function toolRateLimits(config: {
  RATE_LIMIT_PUBLIC_PER_SECOND: number;
  RATE_LIMIT_PUBLIC_BURST: number;
  RATE_LIMIT_ME_PER_SECOND: number;
  RATE_LIMIT_ME_BURST: number;
}): { public: RateLimit; me: RateLimit } {
  return {
    public: { perSecond: config.RATE_LIMIT_PUBLIC_PER_SECOND, burst: config.RATE_LIMIT_PUBLIC_BURST },
    me: { perSecond: config.RATE_LIMIT_ME_PER_SECOND, burst: config.RATE_LIMIT_ME_BURST },
  };
}

/** Production refuses the development session-key encryption key (a superRefine step of the hosting app's schema). */
export function refuseDevSessionKeyInProduction(
  config: { NODE_ENV: string; SESSION_KEY_ENCRYPTION_KEY: string },
  ctx: z.RefinementCtx,
): void {
  if (config.NODE_ENV === 'production' && config.SESSION_KEY_ENCRYPTION_KEY === DEV_SESSION_KEY_ENCRYPTION_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['SESSION_KEY_ENCRYPTION_KEY'],
      message: 'set a real key in production (the development default is refused)',
    });
  }
}

/** What the tool runtime reads from its hosting app's validated environment. */
export type ToolsRuntimeEnv = z.output<z.ZodObject<typeof toolsRuntimeEnvShape>> &
  UpstreamConfig & {
    PUBLIC_BASE_URL: string;
    REDIS_URL: string;
    REDIS_PREFIX: string;
    DATABASE_URL: string;
  };

/** The runtime's options from the hosting app's environment; each transport names the token audiences it accepts. */
export function toolsRuntimeOptions(config: ToolsRuntimeEnv, tokenAudiences: string[]): ToolsRuntimeOptions {
  return {
    publicBaseUrl: config.PUBLIC_BASE_URL,
    redisUrl: config.REDIS_URL,
    redisPrefix: config.REDIS_PREFIX,
    databaseUrl: config.DATABASE_URL,
    upstream: config,
    sessionKeyEncryptionKey: config.SESSION_KEY_ENCRYPTION_KEY,
    sessionKeyEncryptionKeysOld: config.SESSION_KEY_ENCRYPTION_KEYS_OLD,
    quoteTtlSeconds: config.QUOTE_TTL_SECONDS,
    intentWaitMs: config.INTENT_WAIT_MS,
    priceMaxAgeMs: config.PRICE_MAX_AGE_MS,
    oauthJwksUrl: config.OAUTH_JWKS_URL ?? `${config.OAUTH_INTERNAL_URL}/jwks`,
    tokenIssuer: config.PUBLIC_BASE_URL,
    tokenAudiences,
  };
}
