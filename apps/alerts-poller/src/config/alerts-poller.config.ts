import { baseEnvShape, databaseEnvShape, env, redisEnvShape } from '@paper/nest-infra';
import { z } from 'zod';

/** Every environment variable alerts-poller reads, validated at start-up. */
export const alertsPollerConfigSchema = z.object({
  ...baseEnvShape,
  ...databaseEnvShape,
  ...redisEnvShape,
  PORT: env.port(3006).describe('HTTP port (API, probes and /metrics).'),
  EXCHANGE_API_URL: env
    .url('http://localhost:8080')
    .describe('Base URL of the exchange tool API; its public family is polled.'),
  ALERTS_POLL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(5000)
    .describe(
      'Wallet poll period (ms, at least 1000). The tool API caches public results for 5 s and asks for at most one ' +
        'poll a second.',
    ),
  ALERTS_PROTOCOL_POLL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(5000)
    .describe('Protocol-rule poll period (ms, at least 1000): mint rate and market status.'),
  ALERTS_TOOL_TIMEOUT_MS: env.positiveInt(5000).describe('Timeout of one tool call (ms).'),
  ALERTS_TOOL_CALLS_PER_SECOND: env
    .positiveInt(10)
    .describe('Tool calls per second, all tools together (the tool API rate-limits each caller).'),
  ALERTS_ACCOUNT_CONCURRENCY: env.positiveInt(4).describe('get_account reads in flight at once.'),
  ALERTS_ACCOUNT_FETCH_MAX: env
    .positiveInt(40)
    .describe(
      'Tool calls per wallet cycle beyond the trade feed and get_markets (get_account reads and leaderboard scan ' +
        'pages); the rest wait for the next cycle, most urgent first.',
    ),
  ALERTS_ACCOUNT_REFRESH_MS: env
    .positiveInt(900_000)
    .describe(
      'A quiet wallet is re-read after this long (ms) at the soonest: deposits, payouts, staking and new session ' +
        'keys are not in the trade feed.',
    ),
  ALERTS_ACCOUNT_REFRESH_MAX: env
    .positiveInt(4)
    .describe(
      'Quiet-wallet refresh reads per wallet cycle at most; with more quiet wallets than this covers in ' +
        'ALERTS_ACCOUNT_REFRESH_MS, each is refreshed less often.',
    ),
  ALERTS_FEED_OVERLAP_MS: env
    .positiveInt(30_000)
    .describe('Trade events up to this much older (ms) than the newest one seen are still checked (late commits).'),
  ALERTS_REARM_MARGIN_PCT: z.coerce
    .number()
    .min(0)
    .max(100)
    .default(20)
    .describe(
      'Hysteresis: a threshold alert re-arms once the value is back past the threshold by this percentage of the ' +
        'threshold.',
    ),
  ALERTS_STREAM: env
    .bool(true)
    .describe(
      'Follow the exchange public event stream (/api/v1/events): trades and price ticks start a wallet cycle at ' +
        'once; the scheduled poll stays the fallback.',
    ),
  ALERTS_STREAM_WAKE_MS: env.positiveInt(500).describe('A stream event starts a wallet cycle at most this often (ms).'),
  ALERTS_POLL_LOCK_MS: env
    .positiveInt(30_000)
    .describe(
      'Lease of the poll leader lock (ms), renewed while a cycle runs; a crashed leader is replaced after it lapses.',
    ),
});

export type AlertsPollerConfig = z.infer<typeof alertsPollerConfigSchema>;
