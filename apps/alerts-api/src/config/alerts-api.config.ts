import { alertsAccountsEnvShape } from '@paper/alerts-accounts';
import { destinationRateEnvShape } from '@paper/alerts-delivery';
import { baseEnvShape, databaseEnvShape, env, mcpTransportEnvShape, redisEnvShape } from '@paper/nest-infra';
import { z } from 'zod';
import { alertsRateLimitEnvShape } from '../rate-limit/alerts-rate-limit.config';

/** Unset and empty both mean "not configured". */
const optionalText = (pattern: RegExp, message: string) =>
  z
    .string()
    .regex(pattern, message)
    .or(z.literal(''))
    .optional()
    .transform((v) => (v ? v.trim() : undefined));

/** Every environment variable alerts-api reads, validated at start-up. */
export const alertsApiConfigSchema = z.object({
  ...baseEnvShape,
  ...databaseEnvShape,
  ...redisEnvShape,
  PORT: env.port(3005).describe('HTTP port (API, probes and /metrics).'),
  ALERTS_BASE_URL: env
    .url('http://localhost:8090')
    .describe('Public base URL of the alerts service (the OpenAPI server URL).'),
  EXCHANGE_API_URL: env
    .url('http://localhost:8080')
    .describe('Base URL of the exchange tool API; its public family is polled.'),
  UPSTREAM_TIMEOUT_MS: env
    .positiveInt(5000)
    .describe('Timeout (ms) of one exchange API call made by /api/upstream/* and the MCP exchange tools.'),
  DISCORD_API_BASE: env
    .url('https://discord.com/api')
    .describe('Discord API base (/webhooks/{id}/{token} is appended); point it at a local receiver in tests.'),
  TELEGRAM_API_BASE: env
    .url('https://api.telegram.org')
    .describe('Telegram Bot API base; point it at a local server in tests.'),
  TELEGRAM_BOT_TOKEN: optionalText(/^\S+$/, 'must be a bot token').describe(
    'Bot token; Telegram delivery and linking are off without it.',
  ),
  TELEGRAM_BOT_USERNAME: optionalText(/^[A-Za-z0-9_]{3,64}$/, 'must be the bot username without @').describe(
    'Bot username without @ (shown in replies; alerts-api builds the deep link from it).',
  ),
  ALERTS_DELIVERY_TIMEOUT_MS: env.positiveInt(10000).describe('Timeout of one delivery attempt (ms).'),
  ...destinationRateEnvShape,
  ...alertsAccountsEnvShape,
  ...mcpTransportEnvShape,
  ...alertsRateLimitEnvShape,
});

export type AlertsApiConfig = z.infer<typeof alertsApiConfigSchema>;
