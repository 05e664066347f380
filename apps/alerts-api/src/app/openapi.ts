import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ALERTS_API_FEATURES } from './alerts-api.module';

const DESCRIPTION = [
  'Subscriptions that watch wallets of the paper-trading exchange and deliver alerts to Discord webhooks, signed ' +
    'webhooks and Telegram.',
  'Create an account with `POST /api/accounts` and send its token as `Authorization: Bearer <ACCOUNT_TOKEN>`.',
  'Errors are `{ code, message }`. Until the storage schema is applied, endpoints that need storage answer 503 ' +
    '`service_initializing` with `Retry-After: 300`.',
  'Webhook deliveries carry `x-service-alerts-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` ' +
    'and `x-service-alerts-event-id`.',
  'Alerts are best effort. The service is unofficial and not affiliated with the exchange.',
].join('\n\n');

/** The OpenAPI 3.1 document of the alerts API, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication, baseUrl: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Wallet Alerts API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addServer(baseUrl.replace(/\/+$/, ''))
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'alrt_<account>_<secret>',
        description: 'Account token returned once by POST /api/accounts',
      },
      'account',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, { include: ALERTS_API_FEATURES });
  // Request DTOs are validated with unknown keys refused: say so in their schemas.
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    if (name.endsWith('Dto') && name !== 'ErrorBodyDto' && 'properties' in schema) schema.additionalProperties = false;
  }
  document.paths['/openapi.json'] = {
    get: {
      operationId: 'openapi',
      summary: 'This OpenAPI 3.1 document',
      tags: ['service'],
      responses: {
        '200': {
          description: 'OpenAPI document',
          content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
        },
      },
    },
  };
  describeRefusals(document);
  describeIdempotency(document);
  return document;
}

const errorBody = {
  description: '',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' } } },
};
const exchangeFailure = {
  type: 'object',
  required: ['ok', 'error'],
  properties: {
    ok: { type: 'boolean', enum: [false] },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
};
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * What every operation can be refused with besides its own errors: security stated on each (`[]` for the
 * public ones, optional on /mcp), 400 for text that cannot be stored (query strings included), 413 and
 * 415 for bodies, and on the exchange proxy the exchange's own 4xx answers passed through.
 */
function describeRefusals(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses = operation.responses;
      if (path === '/mcp') {
        if (method === 'post') operation.security = [{}, { account: [] }];
        else operation.security = [];
        continue;
      }
      operation.security ??= [];
      if (path !== '/healthz')
        responses['429'] ??= {
          ...errorBody,
          description:
            'Too many requests (`rate_limited`): per account with a token, per client address without one, account ' +
            'creation per client address; `Retry-After` in seconds',
          headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
        };
      responses['400'] ??= {
        ...errorBody,
        description:
          'Invalid input (`validation_failed`, `unknown_key`, `invalid_json`), including text that cannot be stored ' +
          '(NUL)',
      };
      if (method !== 'get') {
        responses['413'] ??= { ...errorBody, description: 'The body is larger than 256 kB (`payload_too_large`)' };
        responses['415'] ??= {
          ...errorBody,
          description: 'The body is not JSON (`unsupported_media_type`): send `Content-Type: application/json`',
        };
      }
      if (path.startsWith('/api/upstream/tools')) {
        for (const status of ['400', '404', '429']) {
          responses[status] = {
            description:
              "The exchange's 4xx answer, passed through (its envelope), or this proxy's own refusal (`{ code, " +
              'message }`)',
            content: {
              'application/json': {
                schema: { anyOf: [{ $ref: '#/components/schemas/ErrorBodyDto' }, exchangeFailure] },
              },
            },
          };
        }
      }
    }
  }
}

const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7e]+$';
const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    'Makes the write safe to send twice (per account, kept 24 hours): the same key with the same arguments ' +
    'answers the first 2xx answer again with `Idempotent-Replayed: true`; other arguments answer 409 ' +
    '`idempotency_key_mismatch`. A UUID is a good choice.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN },
};
const accountCreationKey = {
  ...idempotencyKey,
  description:
    'Makes the creation safe to send twice: the same key within 24 hours answers the same account and token ' +
    'with `Idempotent-Replayed: true` (and creates nothing); another body answers 409 ' +
    '`idempotency_key_mismatch`. The key is scoped by itself and is the only secret guarding the replayed ' +
    'token: send a random UUID v4 (at least 32 characters).',
  schema: { ...idempotencyKey.schema, minLength: 32 },
};
const IDEMPOTENCY_CONFLICTS =
  '`idempotency_key_mismatch` (the Idempotency-Key was used with other arguments) or ' +
  '`idempotency_key_in_progress` (its first request still runs; `Retry-After: 1`)';

/**
 * The writes that take `Idempotency-Key` (every authenticated write under /api/, and account creation):
 * the header, its 409 answers, and `Idempotent-Replayed` on their successful answers.
 */
function describeIdempotency(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      const creation = operation?.operationId === 'createAccount';
      if (!operation || !(creation || operation.security?.some((s) => 'account' in s))) continue;
      operation.parameters = [...(operation.parameters ?? []), creation ? accountCreationKey : idempotencyKey];
      const responses = operation.responses;
      const conflict = responses['409'] as { description?: string } | undefined;
      if (conflict?.description) conflict.description += `; ${IDEMPOTENCY_CONFLICTS}`;
      else responses['409'] = { ...errorBody, description: `Conflict: ${IDEMPOTENCY_CONFLICTS}` };
      for (const [status, response] of Object.entries(responses)) {
        if (!status.startsWith('2') || !response || '$ref' in response) continue;
        response.headers = {
          ...response.headers,
          'Idempotent-Replayed': {
            description: '`true` when this is the first answer to the same Idempotency-Key, replayed',
            schema: { type: 'string', enum: ['true'] },
          },
        };
      }
    }
  }
}
