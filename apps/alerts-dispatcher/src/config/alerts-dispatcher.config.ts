import { allowHostsEnvShape, destinationRateEnvShape } from '@paper/alerts-delivery';
import { baseEnvShape, databaseEnvShape, env, redisEnvShape } from '@paper/nest-infra';
import { z } from 'zod';

const optionalText = () =>
  z
    .string()
    .optional()
    .transform((v) => (v && v.trim() ? v.trim() : undefined));

const schedule = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const delays = v.split(',').map((s) => Number(s.trim()));
      if (delays.length === 0 || delays.some((d) => !Number.isInteger(d) || d < 0)) {
        ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of delays in milliseconds' });
        return z.NEVER;
      }
      return delays;
    });

/** Every environment variable alerts-dispatcher reads, validated at start-up. */
export const alertsDispatcherConfigSchema = z.object({
  ...baseEnvShape,
  ...databaseEnvShape,
  ...redisEnvShape,
  PORT: env.port(3007).describe('HTTP port (API, probes and /metrics).'),
  DISCORD_API_BASE: env
    .url('https://discord.com/api')
    .describe('Discord API base (/webhooks/{id}/{token} is appended); point it at a local receiver in tests.'),
  TELEGRAM_API_BASE: env
    .url('https://api.telegram.org')
    .describe('Telegram Bot API base; point it at a local server in tests.'),
  TELEGRAM_BOT_TOKEN: optionalText().describe(
    'Bot token: alerts-api runs the bot, mints link codes and sends test messages with it, alerts-dispatcher sends ' +
      'alert deliveries; Telegram is off without it.',
  ),
  ALERTS_DELIVERY_TIMEOUT_MS: env.positiveInt(10000).describe('Timeout of one delivery attempt (ms).'),
  ALERTS_DELIVERY_CONCURRENCY: env.positiveInt(16).describe('Deliveries in flight per dispatcher process.'),
  ALERTS_RETRY_SCHEDULE_MS: schedule('5000,300000,1800000,7200000,18000000,36000000,36000000').describe(
    'Delays (ms, comma-separated) before the 2nd, 3rd, ... attempt; the first is immediate; after the last the ' +
      'delivery is dead-lettered.',
  ),
  ALERTS_RETRY_JITTER_PCT: z.coerce
    .number()
    .min(0)
    .max(100)
    .default(20)
    .describe('Each retry delay is varied at random by up to this percentage either way.'),
  ALERTS_RETRY_AFTER_MAX_MS: env
    .positiveInt(21_600_000)
    .describe("A receiver's Retry-After is honoured up to this long (ms)."),
  ALERTS_DISABLE_AFTER_FAILING_MS: env
    .positiveInt(432_000_000)
    .describe(
      "A channel whose deliveries fail with no success for this long (ms; 5 days, Svix's rule) is disabled and its " +
        'account told on its other channels.',
    ),
  ALERTS_DISABLE_MIN_FAILED_ATTEMPTS: env
    .positiveInt(10)
    .describe(
      'Failed attempts since the last success a channel needs before ALERTS_DISABLE_AFTER_FAILING_MS can disable it ' +
        "(like Convoy's minimum request count), so a single rare alert cannot.",
    ),
  ALERTS_RATE_LIMITED_MAX: env
    .positiveInt(50)
    .describe(
      'Cap on rate-limited answers (429) per delivery. Each waits exactly Retry-After and uses up no attempt; the ' +
        'answer that reaches this count dead-letters the delivery.',
    ),
  ...destinationRateEnvShape,
  ...allowHostsEnvShape,
  ALERTS_DELIVERY_LOCK_MS: env
    .positiveInt(3000)
    .describe(
      'Lease (ms) of a delivery being sent, renewed every third of it while the attempt runs: the deliveries of a ' +
        'dispatcher that died are claimed again after it lapses.',
    ),
  ALERTS_DELIVERY_POLL_MS: env
    .positiveInt(250)
    .describe(
      'How often (ms) an idle dispatcher looks for due deliveries (retries, and any whose wake-up job was lost) ' +
        'besides its wake-ups.',
    ),
  ALERTS_SWEEP_MS: env
    .positiveInt(30000)
    .describe('Period (ms) of the sweep-deliveries schedule, a periodic wake-up of the dispatchers through the queue.'),
});

export type AlertsDispatcherConfig = z.infer<typeof alertsDispatcherConfigSchema>;
