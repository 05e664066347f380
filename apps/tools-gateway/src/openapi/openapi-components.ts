import {
  meResultSchema,
  SCOPES,
  toolErrorSchema,
  toolFailureSchema,
  toolListingSchema,
  toolSuccessSchema,
} from '@paper/contracts';
import { z } from 'zod';

type Json = Record<string, unknown>;

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** A response schema from its zod schema in @paper/contracts (the shape the service sends). */
function jsonSchema(schema: z.ZodType): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'output' }) as Json;
  return rest;
}

const failure = (description: string, headers?: Json): Json => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref('ToolFailure') } },
});

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } };
const challenge = {
  'WWW-Authenticate': { description: 'Bearer challenge (error and scope).', schema: { type: 'string' } },
};

/** The failure responses every operation can give. */
export function errorResponses(authenticated: boolean): Json {
  return {
    '400': failure(
      'Invalid or unknown arguments, or a business rule (guardrail, exchange limit, quote) refused the call.',
    ),
    '401': failure(
      authenticated ? 'Missing or invalid bearer token.' : 'The tool needs an OAuth token (trading tools).',
      challenge,
    ),
    ...(authenticated
      ? {
          '403': failure('The token lacks the required scope.', challenge),
          '405': failure('Trading tools only run by POST.'),
        }
      : {}),
    '404': failure('Unknown tool, or the intent or position is not found.'),
    '429': failure('Too many requests from this caller.', retryAfter),
    '502': failure(
      authenticated
        ? 'A service the call depends on did not answer or rate-limited the service (the upstream price venue, or ' +
            "the authorization server's keys that check the token); retry shortly."
        : 'The upstream price venue did not answer or rate-limited the service; retry shortly.',
      retryAfter,
    ),
    '503': failure(
      "The exchange's storage (database or Redis) is unavailable; nothing was done or accepted. Retry shortly.",
      retryAfter,
    ),
  };
}

/** The client key a write takes as a header (the same key as its `clientOrderId` argument). */
export const IDEMPOTENCY_KEY_PARAMETER: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Your key for this write, unique per wallet (a UUID); the same key as the `clientOrderId` argument (send one, ' +
    'or both equal). A retry with the same key and arguments answers the first answer again, with ' +
    '`Idempotent-Replayed: true`; kept 24 hours.',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
};

/** The header of a replayed answer. */
export const REPLAYED_HEADER: Json = {
  'Idempotent-Replayed': {
    description: 'true when this is the first answer to the same client key, sent again (nothing was done twice).',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** The failures of a write's client key. */
export function idempotencyErrorResponses(): Json {
  return {
    '409': failure(
      'The client key was used with other arguments (`idempotency_key_mismatch`), or its first call is still ' +
        'running (`idempotency_key_in_progress`, with Retry-After).',
      retryAfter,
    ),
  };
}

/** The failures of an operation that takes a body: too large, or not JSON. */
export function bodyErrorResponses(): Json {
  return {
    '413': failure('The body is larger than 256 KiB (`payload_too_large`).'),
    '415': failure('The body is not sent as `Content-Type: application/json` (`unsupported_media_type`).'),
  };
}

/** Shared schemas and the OAuth security scheme. */
export function openApiComponents(base: string): { schemas: Json; securitySchemes: Json } {
  return {
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        description:
          'Authorization code flow with PKCE (S256). The consent step connects the wallet and approves a session key ' +
          'with guardrails.',
        flows: {
          authorizationCode: {
            authorizationUrl: `${base}/authorize`,
            tokenUrl: `${base}/token`,
            refreshUrl: `${base}/token`,
            scopes: {
              [SCOPES.read]: 'Read the connected account; required by every tool on /me.',
              [SCOPES.write]: "Open and close positions within the owner's guardrails; required by the trading tools.",
              [SCOPES.offline]: 'Stay connected (refresh tokens).',
            },
          },
        },
      },
    },
    schemas: {
      ToolError: jsonSchema(toolErrorSchema),
      ToolFailure: jsonSchema(toolFailureSchema),
      ToolSuccess: jsonSchema(toolSuccessSchema),
      ToolListing: jsonSchema(toolListingSchema),
      MeResult: jsonSchema(meResultSchema),
    },
  };
}
