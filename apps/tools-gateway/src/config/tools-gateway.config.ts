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
    PUBLIC_BASE_URL: env.baseUrl('http://localhost:8080').describe('The one public base URL: token issuer, chart links and the OpenAPI server of the tool API.'),
  })
  .superRefine(refuseDevSessionKeyInProduction);

export type ToolsGatewayConfig = z.infer<typeof toolsGatewayConfigSchema>;
