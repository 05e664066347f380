import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { PROXIED_EXCHANGE_TOOLS, type UpstreamClient } from '../upstream/upstream-client.service';
import { fail, looseObject, ok, run } from './tool-result';

const envelopeOutput = looseObject({
  ok: z.boolean(),
  summary: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  error: looseObject({ code: z.string(), message: z.string() }).optional(),
});

/** The exchange's public tools, called on behalf of the MCP client at `callerIp` (forwarded to the exchange). */
export function registerExchangeTools(server: McpServer, upstream: UpstreamClient, callerIp: () => string): void {
  // The exchange's public tools as the catalog defines them (title, description, input schema), under
  // `exchange_<tool>`.
  for (const def of PROXIED_EXCHANGE_TOOLS) {
    server.registerTool(
      `exchange_${def.name}`,
      {
        title: def.title,
        description: `${def.description}\n\nRead-only, from the exchange tool API through this service (no token: a wallet argument is needed where the tool takes one).`,
        inputSchema: def.inputSchema.shape,
        outputSchema: envelopeOutput,
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      (args: Record<string, unknown>) =>
        run(async () => {
          const envelope = await upstream.callTool(def.name, args, callerIp());
          if (envelope['ok'] !== true) {
            const error = (envelope['error'] ?? {}) as { code?: string; message?: string };
            return {
              ...fail(error.code ?? 'upstream_error', error.message ?? 'The exchange API refused the request.'),
              structuredContent: envelope,
            };
          }
          return ok(envelope);
        }),
    );
  }
}
