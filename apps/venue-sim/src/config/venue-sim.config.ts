import { baseEnvShape, env } from '@paper/nest-infra';
import { z } from 'zod';

/** Every environment variable venue-sim reads, validated at start-up. */
export const venueSimConfigSchema = z.object({
  ...baseEnvShape,
  PORT: env.port(3008).describe('HTTP port (API, probes and /metrics).'),
  /** Seed of the price paths: the same seed gives the same prices relative to the start. */
  SIM_SEED: env.positiveInt(42).describe('Seed of the deterministic price paths.'),
  /** Prices move once per tick. */
  SIM_TICK_MS: env.positiveInt(1000).describe('Interval (ms) between simulated price ticks.'),
  /** Request weight allowed a minute per client IP on /info (the venue's 1200). */
  SIM_WEIGHT_PER_MINUTE: env.positiveInt(1200).describe('Request-weight budget per minute and client IP before 429.'),
  /** How long a request is held in the `timeout` failure mode before a 504. */
  SIM_HANG_MS: env.positiveInt(30000).describe('In timeout mode, how long (ms) a request is held before a 504.'),
});

export type VenueSimConfig = z.infer<typeof venueSimConfigSchema>;
