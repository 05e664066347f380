import { SCOPES } from '@paper/contracts';

type Json = Record<string, unknown>;

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

const failure = (description: string, headers?: Json): Json => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref('ToolFailure') } },
});

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } };
const challenge = { 'WWW-Authenticate': { description: 'Bearer challenge (error and scope).', schema: { type: 'string' } } };

/** The failure responses every operation can give. */
export function errorResponses(authenticated: boolean): Json {
  return {
    '400': failure('Invalid or unknown arguments, or a business rule (guardrail, exchange limit, quote) refused the call.'),
    '401': failure(authenticated ? 'Missing or invalid bearer token.' : 'The tool needs an OAuth token (trading tools).', challenge),
    ...(authenticated ? { '403': failure('The token lacks the required scope.', challenge), '405': failure('Trading tools only run by POST.') } : {}),
    '404': failure('Unknown tool, or the intent or position is not found.'),
    '429': failure('Too many requests from this caller.', retryAfter),
    '502': failure(
      authenticated
        ? "A service the call depends on did not answer or rate-limited the service (the upstream price venue, or the authorization server's keys that check the token); retry shortly."
        : 'The upstream price venue did not answer or rate-limited the service; retry shortly.',
      retryAfter,
    ),
    '503': failure("The exchange's storage (database or Redis) is unavailable; nothing was done or accepted. Retry shortly.", retryAfter),
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
        description: 'Authorization code flow with PKCE (S256). The consent step connects the wallet and approves a session key with guardrails.',
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
      ToolError: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', description: 'Machine-readable error code, e.g. wallet_required, invalid_arguments, quote_expired.' },
          message: { type: 'string', description: 'Written for the end user; says how to fix the problem.' },
          requestId: { type: 'string', description: 'On internal errors (500): the request id, also sent as `X-Request-Id` on every response; quote it when reporting a problem.' },
        },
      },
      ToolFailure: {
        type: 'object',
        required: ['ok', 'error'],
        properties: { ok: { const: false }, error: ref('ToolError') },
      },
      ToolSuccess: {
        type: 'object',
        required: ['ok', 'summary', 'data'],
        properties: {
          ok: { const: true },
          summary: { type: 'string', description: 'A sentence to relay to the user.' },
          data: { type: 'object', additionalProperties: true, description: 'Structured result of the tool.' },
        },
      },
      ToolListing: {
        type: 'object',
        required: ['ok', 'summary', 'data'],
        properties: {
          ok: { const: true },
          summary: { type: 'string' },
          data: {
            type: 'object',
            required: ['tools'],
            properties: {
              tools: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['name', 'title', 'description', 'annotations', 'family', 'scope', 'endpoints', 'inputSchema', 'outputSchema'],
                  properties: {
                    name: { type: 'string' },
                    title: { type: 'string' },
                    description: { type: 'string' },
                    annotations: { type: 'object', additionalProperties: { type: 'boolean' } },
                    family: { type: 'string', enum: ['public', 'me-only'] },
                    scope: { type: 'string', enum: [SCOPES.read, SCOPES.write] },
                    wallet: { type: 'string', enum: ['none', 'optional', 'connected'] },
                    endpoints: { type: 'object', additionalProperties: true },
                    inputSchema: { type: 'object', additionalProperties: true },
                    outputSchema: { type: 'object', additionalProperties: true },
                  },
                },
              },
            },
          },
        },
      },
      MeResult: {
        type: 'object',
        required: ['ok', 'summary', 'data'],
        properties: {
          ok: { const: true },
          summary: { type: 'string' },
          data: {
            type: 'object',
            required: ['wallet', 'mode', 'canTrade', 'guardrails'],
            additionalProperties: true,
            properties: {
              wallet: { type: 'string' },
              mode: { type: 'string', enum: ['paper'] },
              canTrade: { type: 'boolean' },
              guardrails: { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }] },
              scopes: { type: 'array', items: { type: 'string' } },
              clientId: { type: ['string', 'null'] },
            },
          },
        },
      },
    },
  };
}
