import {
  EVENT_STREAM_HEARTBEAT_MS,
  EVENT_STREAM_PATHS,
  EVENT_STREAM_RETRY_MS,
  EXCHANGE_EVENT_TYPES,
  exchangeEventSchema,
  PUBLIC_EVENT_TYPES,
  priceEventSchema,
  SCOPES,
} from '@paper/contracts';
import { z } from 'zod';
import { errorResponses } from './openapi-components';

type Json = Record<string, unknown>;

const STREAM_DESCRIPTION =
  `Server-sent events (text/event-stream). The stream starts with \`retry: ${EVENT_STREAM_RETRY_MS}\`; each logged ` +
  `event is ` +
  '`id: <cursor>`, `event: <type>`, `data: <one JSON event>`. Send `Last-Event-ID` (or the `lastEventId` query ' +
  'parameter) to ' +
  'replay what you missed from the log, then continue live without a gap or a duplicate. A cursor older than the ' +
  'retention gets ' +
  '`event: reset` first (data: `{reason: "cursor_expired", cursor, resumeAfter}`) and the stream continues from the ' +
  'oldest event kept. ' +
  `A comment line \`: hb\` is sent at least every ${EVENT_STREAM_HEARTBEAT_MS / 1000} s. The server ends a stream ` +
  `with \`event: close\` ` +
  '(data: `{reason, message}`): `slow_consumer` when the client reads slower than events arrive, `shutdown` when the ' +
  'server restarts (reconnect with Last-Event-ID); on the /me stream `token_expired` when the access token expires ' +
  '(refresh it, then reconnect) and `connection_revoked` when the owner revoked the connection. One caller holds at ' +
  'most 20 streams at once by default (per wallet on /me, per client address on the public stream): one more is 429 ' +
  'with Retry-After.';

const typesParameter = (allowed: readonly string[]): Json => ({
  name: 'types',
  in: 'query',
  required: false,
  description: `Comma-separated event types to receive (default: all of ${allowed.join(', ')}).`,
  schema: { type: 'string' },
});

const common: Json[] = [
  {
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description: 'Resume after this event id.',
    schema: { type: 'string', pattern: '^\\d{1,19}$' },
  },
  {
    name: 'lastEventId',
    in: 'query',
    required: false,
    description: 'Resume after this event id (for clients that cannot set headers).',
    schema: { type: 'string', pattern: '^\\d{1,19}$' },
  },
  {
    name: 'market',
    in: 'query',
    required: false,
    description: 'Only events of this market.',
    schema: { type: 'string', enum: ['BTC', 'ETH'] },
  },
];

const streamResponse = (schemaRef: Json): Json => ({
  description: 'The event stream.',
  content: {
    'text/event-stream': {
      schema: { type: 'string', description: 'A stream of server-sent-event frames.' },
      'x-event-data': schemaRef,
    },
  },
});

/** The event-stream paths and the schemas of their events (for the tool API's OpenAPI document). */
export function eventStreamPaths(): { paths: Json; schemas: Json } {
  const json = (schema: z.ZodType): Json => {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'output' }) as Json;
    return rest;
  };
  const schemas: Json = {
    ExchangeEvent: { title: 'A logged exchange event (SSE data)', ...json(exchangeEventSchema) },
    PriceEvent: { title: 'A live price tick (SSE event: price)', ...json(priceEventSchema) },
  };
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const paths: Json = {
    [EVENT_STREAM_PATHS.public]: {
      get: {
        operationId: 'stream_events',
        summary: 'Stream public exchange events',
        description:
          `Trades (opens, closes, liquidations), market status changes and live \`price\` ticks (not ` +
          `logged, never replayed). ${STREAM_DESCRIPTION}`,
        tags: ['public'],
        security: [],
        parameters: [
          typesParameter([...PUBLIC_EVENT_TYPES, 'price']),
          ...common,
          {
            name: 'wallet',
            in: 'query',
            required: false,
            description: 'Only the public activity of this wallet.',
            schema: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
          },
        ],
        responses: {
          '200': streamResponse({ oneOf: [ref('ExchangeEvent'), ref('PriceEvent')] }),
          ...errorResponses(false),
        },
      },
    },
    [EVENT_STREAM_PATHS.me]: {
      get: {
        operationId: 'stream_my_events',
        summary: 'Stream the connected wallet’s events',
        description:
          `Every event of the connected wallet: intents accepted, executed, refused, cancelled or ` +
          `expired, positions opened, closed and liquidated, deposits, payouts, withdrawals, staking. ` +
          `${STREAM_DESCRIPTION}`,
        tags: ['account'],
        security: [{ oauth2: [SCOPES.read] }],
        parameters: [typesParameter(EXCHANGE_EVENT_TYPES), ...common],
        responses: { '200': streamResponse(ref('ExchangeEvent')), ...errorResponses(true) },
      },
    },
  };
  return { paths, schemas };
}
