import { baseEnvShape, databaseEnvShape, env, redisEnvShape } from '@paper/nest-infra';
import { upstreamEnvShape } from '@paper/upstream';
import { z } from 'zod';

/** Every environment variable trading-executor reads, validated at start-up. */
export const tradingExecutorConfigSchema = z.object({
  ...baseEnvShape,
  ...databaseEnvShape,
  ...redisEnvShape,
  ...upstreamEnvShape,
  PORT: env.port(3004).describe('HTTP port (API, probes and /metrics).'),
  PRICE_POLL_MS: env.positiveInt(1000).describe("How often (ms) the executor polls the venue's best bid and ask."),
  PRICE_STALE_MS: env
    .positiveInt(10000)
    .describe('A price older than this (ms) is never used to execute or liquidate.'),
  PRICE_WARMUP_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(7000)
    .describe(
      'After start, how long (ms) queued intents wait for a fresh price of every market before they run without ' +
        'one (a restart never refuses an accepted intent for want of the price its first poll is about to fetch).',
    ),
  PRICE_INGEST: env
    .bool(true)
    .describe('Whether this replica takes part in the price-ingest election (one replica ingests at a time).'),
  LIQUIDATIONS: env
    .bool(true)
    .describe('Whether this replica takes part in the liquidator election (one replica liquidates at a time).'),
  LEADER_LEASE_MS: env
    .positiveInt(5000)
    .describe(
      'Redis lease (ms) of the single price ingester and liquidator; another replica takes over after it lapses.',
    ),
  INTENT_CONCURRENCY: env
    .positiveInt(2)
    .describe('Intent batches one replica runs at the same time (each batch is one database transaction).'),
  INTENT_BATCH_MAX: env
    .positiveInt(100)
    .describe(
      'Most intents one batch claims; at low load a batch is the one intent that arrived, under load batches grow ' +
        'to this size.',
    ),
  INTENT_SWEEP_MS: env
    .positiveInt(1000)
    .describe(
      'Interval (ms) of the sweeper that runs accepted intents and owner actions whose queue job is missing (lost, ' +
        'wiped or never added).',
    ),
  INTENT_LOCK_MS: env
    .positiveInt(2000)
    .describe(
      "BullMQ lock of an intent's wake-up job (ms): a killed replica's job is handed to another one within about " +
        '1.3 times this long (the sweeper runs its intents sooner).',
    ),
  LIQUIDATION_BATCH: env
    .positiveInt(500)
    .describe('Positions liquidated per database transaction, per side of a market.'),
  HARVEST_EVERY_MS: env.positiveInt(10000).describe('Interval (ms) of the payout-queue harvest and staker payments.'),
  SNAPSHOT_EVERY_MS: env.positiveInt(60000).describe('Interval (ms) of the equity snapshots of active accounts.'),
  ROLLUP_EVERY_MS: env.positiveInt(60000).describe('Interval (ms) of the daily statistics roll-up.'),
  SWEEP_DEPOSITS_EVERY_MS: env
    .positiveInt(5000)
    .describe('Interval (ms) of the sweep crediting deposits found at deposit proxy addresses.'),
  EVENT_RETENTION_DAYS: env
    .positiveInt(7)
    .describe(
      'Days the event log keeps events (the streams replay and get_events pages within this window; an older ' +
        'cursor gets a reset).',
    ),
  PRUNE_EVENTS_EVERY_MS: env
    .positiveInt(3600000)
    .describe('Interval (ms) of the deletion of events older than EVENT_RETENTION_DAYS.'),
  EXPIRE_INTENTS_EVERY_MS: env
    .positiveInt(60000)
    .describe(
      'Interval (ms) of the sweep marking queued intents past their signed expiry (or accepted more than 1 hour ' +
        'ago) as expired.',
    ),
  FEES_TO_STAKERS: env
    .bool(true)
    .describe(
      'Pay the win fees to stakers (pro rata to staked PAPER) at each harvest; false keeps them as protocol fees.',
    ),
  LP_CAP_USDC: env
    .positiveInt(5_000_000)
    .describe('LP balance (whole USDC) above which the excess is swept to stakers.'),
  PAPER_MODE: env
    .bool(true)
    .describe(
      'Paper mode: simulated chain balances and the development endpoints /dev/faucet, /dev/deposit and ' +
        '/dev/owner-actions (never with NODE_ENV=production).',
    ),
});

export type TradingExecutorConfig = z.infer<typeof tradingExecutorConfigSchema>;
