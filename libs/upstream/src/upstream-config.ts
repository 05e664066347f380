import { z } from 'zod';
import { HyperliquidInfoClient } from './hyperliquid-info.client';

/** The real venue. Selecting it is only a matter of setting UPSTREAM_URL to this value. */
export const HYPERLIQUID_MAINNET_URL = 'https://api.hyperliquid.xyz';

/** The local simulator (venue-sim) on its default port: the default upstream for development. */
export const LOCAL_VENUE_SIM_URL = 'http://127.0.0.1:3008';

/** Variables an app adds to its config schema to talk to the upstream venue. */
export const upstreamEnvShape = {
  UPSTREAM_URL: z
    .url()
    .default(LOCAL_VENUE_SIM_URL)
    .describe(
      'Price venue (Hyperliquid info API): venue-sim by default, https://api.hyperliquid.xyz for the real one.',
    ),
  UPSTREAM_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(2000)
    .describe('Timeout (ms) of one price-venue request.'),
  UPSTREAM_RETRIES: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .default(2)
    .describe('Retries (with backoff) of a failed price-venue request.'),
  UPSTREAM_WEIGHT_PER_MINUTE: z.coerce
    .number()
    .int()
    .positive()
    .default(1200)
    .describe('Request-weight budget per minute at the venue (Hyperliquid: 1200 per IP).'),
};

export interface UpstreamConfig {
  UPSTREAM_URL: string;
  UPSTREAM_TIMEOUT_MS?: number;
  UPSTREAM_RETRIES?: number;
  UPSTREAM_WEIGHT_PER_MINUTE?: number;
}

/** The info client for the configured venue: the simulator by default, Hyperliquid when UPSTREAM_URL points there. */
export function createUpstreamClient(config: UpstreamConfig): HyperliquidInfoClient {
  return new HyperliquidInfoClient({
    baseUrl: config.UPSTREAM_URL,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    retries: config.UPSTREAM_RETRIES,
    weightPerMinute: config.UPSTREAM_WEIGHT_PER_MINUTE,
  });
}
