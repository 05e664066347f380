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

const alertsApiEnv = z.object({
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
    'Bot token: alerts-api runs the bot, mints link codes and sends test messages with it, alerts-dispatcher sends ' +
      'alert deliveries; Telegram is off without it.',
  ),
  TELEGRAM_BOT_USERNAME: optionalText(/^[A-Za-z0-9_]{3,64}$/, 'must be the bot username without @').describe(
    'Bot username without @ (the deep link of link codes, shown in replies; learnt with getMe when unset).',
  ),
  TELEGRAM_UPDATES_MODE: z
    .enum(['polling', 'webhook', 'off'])
    .default('polling')
    .describe(
      'How bot updates (/start <code>, commands) arrive: long polling, a webhook to POST /telegram/webhook, or not ' +
        'at all.',
    ),
  TELEGRAM_WEBHOOK_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,256}$/)
    .optional()
    .or(z.literal('').transform(() => undefined))
    .describe(
      'Checked against the X-Telegram-Bot-Api-Secret-Token header of webhook updates (1-256 of A-Za-z0-9_-); ' +
        'required in webhook mode.',
    ),
  TELEGRAM_WEBHOOK_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined))
    .describe(
      'Public URL of POST /telegram/webhook; in webhook mode alerts-api registers it with setWebhook at start.',
    ),
  TELEGRAM_POLL_TIMEOUT_S: z.coerce
    .number()
    .int()
    .min(0)
    .max(50)
    .default(25)
    .describe('Long-poll timeout of getUpdates (seconds).'),
  ALERTS_DELIVERY_TIMEOUT_MS: env.positiveInt(10000).describe('Timeout of one delivery attempt (ms).'),
  ...destinationRateEnvShape,
  ...alertsAccountsEnvShape,
  ...mcpTransportEnvShape,
  ...alertsRateLimitEnvShape,
});

/** Every environment variable alerts-api reads, validated at start-up. */
export const alertsApiConfigSchema = alertsApiEnv.superRefine((config, ctx) => {
  if (config.TELEGRAM_BOT_TOKEN && config.TELEGRAM_UPDATES_MODE === 'webhook' && !config.TELEGRAM_WEBHOOK_SECRET) {
    ctx.addIssue({
      code: 'custom',
      path: ['TELEGRAM_WEBHOOK_SECRET'],
      message: 'required when TELEGRAM_UPDATES_MODE=webhook',
    });
  }
});

export type AlertsApiConfig = z.infer<typeof alertsApiConfigSchema>;
