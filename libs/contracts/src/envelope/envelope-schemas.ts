import { z } from 'zod';
import { SCOPES } from '../auth/access-token';

/**
 * The tool API's envelope and its two fixed answers (the tool listing, the connection on /me), as zod
 * schemas: the TypeScript types and the OpenAPI components are both derived from these.
 */
export const toolErrorSchema = z.object({
  code: z.string().describe('Machine-readable error code, e.g. wallet_required, invalid_arguments, quote_expired.'),
  message: z.string().describe('Written for the end user; says how to fix the problem.'),
  requestId: z
    .string()
    .optional()
    .describe(
      'On internal errors (500): the request id, also sent as `X-Request-Id` on every response; quote it when ' +
        'reporting a problem.',
    ),
});

export const toolFailureSchema = z.object({ ok: z.literal(false), error: toolErrorSchema });

export const toolSuccessSchema = z.object({
  ok: z.literal(true),
  summary: z.string().describe('A sentence to relay to the user.'),
  data: z.record(z.string(), z.unknown()).describe('Structured result of the tool.'),
  replayed: z
    .literal(true)
    .optional()
    .describe(
      'Present when a write was repeated with the same client key (`clientOrderId` or `Idempotency-Key`) and ' +
        "arguments: the first call's answer, sent again; nothing was done twice.",
    ),
});

const endpoint = z.object({ path: z.string(), methods: z.array(z.enum(['GET', 'POST'])), operationId: z.string() });

/** One entry of GET /api/v1/tools. */
export const toolListingEntrySchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  annotations: z.object({
    readOnlyHint: z.boolean(),
    destructiveHint: z.boolean(),
    idempotentHint: z.boolean(),
    openWorldHint: z.boolean(),
  }),
  family: z.enum(['public', 'me-only']),
  scope: z.enum([SCOPES.read, SCOPES.write]),
  wallet: z.enum(['none', 'optional', 'connected']),
  endpoints: z.object({
    public: endpoint.nullable(),
    me: endpoint.extend({ scopes: z.array(z.enum([SCOPES.read, SCOPES.write])).readonly() }),
  }),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()),
});

export const toolListingSchema = toolSuccessSchema.extend({
  data: z.object({ tools: z.array(toolListingEntrySchema) }),
});

/** GET /api/v1/me: the connection (its permissions, with the mode and the OAuth client). */
export const meResultSchema = toolSuccessSchema.extend({
  data: z.looseObject({
    wallet: z.string(),
    mode: z.literal('paper'),
    canTrade: z.boolean(),
    guardrails: z.record(z.string(), z.unknown()).nullable(),
    scopes: z.array(z.string()),
    clientId: z.string().nullable(),
  }),
});

export type ToolListingEntry = z.infer<typeof toolListingEntrySchema>;
export type MeResultData = z.infer<typeof meResultSchema>['data'];
