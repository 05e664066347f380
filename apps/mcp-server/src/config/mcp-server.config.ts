import { baseEnvShape, databaseEnvShape, env, redisEnvShape } from '@paper/nest-infra';
import { upstreamEnvShape } from '@paper/upstream';
import { z } from 'zod';

/** Development-only session-key encryption key, the same default oauth-server uses; refused in production. */
export const DEV_SESSION_KEY_ENCRYPTION_KEY = 'dev-only-session-key-encryption-key-change-me-in-production';

const list = z
  .string()
  .default('')
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));

const trimmedUrl = (fallback: string) => env.url(fallback).transform((v) => v.replace(/\/+$/, ''));

/** Every environment variable mcp-server reads, validated at start-up. */
export const mcpServerConfigSchema = z
  .object({
    ...baseEnvShape,
    ...databaseEnvShape,
    ...redisEnvShape,
    ...upstreamEnvShape,
    PORT: env.port(3002).describe('HTTP port (API, probes and /metrics).'),
    PUBLIC_BASE_URL: trimmedUrl('http://localhost:8080').describe(
      'The one public base URL: token issuer, authorization server, and `{base}/mcp` is the MCP resource (token audience).',
    ),
    OAUTH_INTERNAL_URL: trimmedUrl('http://127.0.0.1:3003').describe("oauth-server's internal URL; its JWKS verifies access tokens."),
    OAUTH_JWKS_URL: z.url().optional().describe('JWKS URL of the token issuer (default: OAUTH_INTERNAL_URL/jwks).'),
    SESSION_KEY_ENCRYPTION_KEY: z
      .string()
      .min(32)
      .default(DEV_SESSION_KEY_ENCRYPTION_KEY)
      .describe('Decrypts session-key private keys written by oauth-server (same value as there).'),
    SESSION_KEY_ENCRYPTION_KEYS_OLD: list.describe('Earlier session-key encryption keys, comma-separated, still accepted for decryption.'),
    QUOTE_TTL_SECONDS: env.positiveInt(180).describe('Validity of a preview_trade quote (seconds).'),
    INTENT_WAIT_MS: env.positiveInt(10000).describe('How long a trading tool waits for the executor before reporting the intent as pending (ms).'),
    PRICE_MAX_AGE_MS: env.positiveInt(15000).describe('A live price older than this (ms) refuses previews and opens.'),
    RATE_LIMIT_PUBLIC_PER_SECOND: env.positiveInt(20).describe('Tool calls per second per client IP without a token (shared with the REST family).'),
    RATE_LIMIT_PUBLIC_BURST: env.positiveInt(40).describe('Burst of tool calls per client IP without a token.'),
    RATE_LIMIT_ME_PER_SECOND: env.positiveInt(20).describe('Tool calls per second per connected wallet and client.'),
    RATE_LIMIT_ME_BURST: env.positiveInt(40).describe('Burst of tool calls per connected wallet and client.'),
    MCP_MAX_BODY_BYTES: env.positiveInt(262144).describe('Largest accepted POST /mcp body (bytes).'),
  })
  .superRefine((config, ctx) => {
    if (config.NODE_ENV === 'production' && config.SESSION_KEY_ENCRYPTION_KEY === DEV_SESSION_KEY_ENCRYPTION_KEY) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_KEY_ENCRYPTION_KEY'], message: 'set a real key in production (the development default is refused)' });
    }
  });

export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;
