import { baseEnvShape, databaseEnvShape, env, mcpTransportEnvShape, redisEnvShape } from '@paper/nest-infra';
import { refuseDevSessionKeyInProduction, toolsRuntimeEnvShape } from '@paper/tools-runtime';
import { upstreamEnvShape } from '@paper/upstream';
import { z } from 'zod';

/** Every environment variable mcp-server reads, validated at start-up. */
export const mcpServerConfigSchema = z
  .object({
    ...baseEnvShape,
    ...databaseEnvShape,
    ...redisEnvShape,
    ...upstreamEnvShape,
    ...toolsRuntimeEnvShape,
    ...mcpTransportEnvShape,
    PORT: env.port(3002).describe('HTTP port (API, probes and /metrics).'),
    PUBLIC_BASE_URL: env
      .baseUrl('http://localhost:8080')
      .describe(
        'The one public base URL: token issuer, authorization server, and `{base}/mcp` is the MCP resource (token ' +
          'audience).',
      ),
    MCP_MAX_BODY_BYTES: env.positiveInt(262144).describe('Largest accepted POST /mcp body (bytes).'),
  })
  .superRefine(refuseDevSessionKeyInProduction);

export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;
