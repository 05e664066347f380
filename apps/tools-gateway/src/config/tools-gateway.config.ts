import { baseEnvShape, databaseEnvShape, env, redisEnvShape } from '@paper/nest-infra';
import { refuseDevSessionKeyInProduction, toolsRuntimeEnvShape } from '@paper/tools-runtime';
import { upstreamEnvShape } from '@paper/upstream';
import { z } from 'zod';

/** Every environment variable tools-gateway reads, validated at start-up. */
export const toolsGatewayConfigSchema = z
  .object({
    ...baseEnvShape,
    ...databaseEnvShape,
    ...redisEnvShape,
    ...upstreamEnvShape,
    ...toolsRuntimeEnvShape,
    PORT: env.port(3001).describe('HTTP port (API, probes and /metrics).'),
    EVENT_STREAM_MAX_CLIENTS: env
      .positiveInt(10000)
      .describe(
        'Most event-stream clients (/api/v1/events, /api/v1/me/events) one gateway serves; more get 503 with ' +
          'Retry-After.',
      ),
    EVENT_STREAM_MAX_PER_CALLER: env
      .positiveInt(20)
      .describe(
        'Most event streams one caller holds open at once on one gateway: per wallet on /api/v1/me/events, per ' +
          'client address on /api/v1/events; more get 429 rate_limited with Retry-After.',
      ),
    EVENT_STREAM_MAX_BUFFER_BYTES: env
      .positiveInt(1048576)
      .describe(
        'Bytes a stream client may leave unread before it is disconnected (event: close, reason slow_consumer).',
      ),
    EVENT_STREAM_PRICE_MS: env
      .positiveInt(250)
      .describe('Live price events are sent at most this often (ms) per market.'),
    PUBLIC_BASE_URL: env
      .baseUrl('http://localhost:8080')
      .describe('The one public base URL: token issuer, chart links and the OpenAPI server of the tool API.'),
  })
  .superRefine(refuseDevSessionKeyInProduction);

export type ToolsGatewayConfig = z.infer<typeof toolsGatewayConfigSchema>;
