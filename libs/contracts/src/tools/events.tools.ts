import { z } from 'zod';
import {
  EVENT_PAGE_DEFAULT,
  EVENT_PAGE_MAX,
  EXCHANGE_EVENT_TYPES,
  exchangeEventSchema,
} from '../events/exchange-events';
import { marketField, walletField } from './tool-fields';
import { defineTool, READ_ONLY } from './tool-definition';

export const EVENT_CURSOR_PATTERN = /^\d{1,19}$/;

export const GET_EVENTS = defineTool({
  name: 'get_events',
  title: 'Events since a cursor',
  description:
    'What happened since you last looked: the exchange event log after a cursor, oldest first, and the cursor to ' +
    'pass next time. Signed in (/me, or MCP with a token) it is everything of the connected wallet: intents ' +
    'accepted, executed, refused, cancelled or expired, positions opened, closed or liquidated with their settled ' +
    'figures, deposits, payouts, withdrawals, staking. Without a token it is the public activity: trades (opens, ' +
    'closes, liquidations) and market status changes, optionally of one `wallet` or `market`. Start with after="0" ' +
    '(the oldest retained event) or the `nextCursor` of the previous answer; `reset: true` means events after your ' +
    'cursor are no longer kept (older than the retention) and the page starts at the oldest one kept. For a live ' +
    'feed use the server-sent-event streams /api/v1/events and /api/v1/me/events instead.',
  annotations: READ_ONLY,
  inputSchema: z
    .object({
      after: z
        .string()
        .regex(EVENT_CURSOR_PATTERN, 'must be a cursor: a string of digits')
        .default('0')
        .describe('Cursor: return events after this one ("0" for the oldest kept).'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(EVENT_PAGE_MAX)
        .default(EVENT_PAGE_DEFAULT)
        .describe(`Most events to return (1 to ${EVENT_PAGE_MAX}).`),
      types: z
        .array(z.enum(EXCHANGE_EVENT_TYPES))
        .min(1)
        .max(EXCHANGE_EVENT_TYPES.length)
        .optional()
        .describe('Only these event types.'),
      market: marketField.optional().describe('Only events of this market.'),
      wallet: walletField
        .optional()
        .describe(
          'Without a token: only the public activity of this wallet. With a token the connected wallet is used.',
        ),
    })
    .strict(),
  outputSchema: z.looseObject({
    events: z.array(exchangeEventSchema),
    nextCursor: z
      .string()
      .describe('Pass it as `after` next time (the last event returned, or your cursor when none).'),
    reset: z
      .boolean()
      .describe('True when events after your cursor were dropped by retention; the page starts at the oldest kept.'),
    more: z.boolean().describe('True when more events follow: call again with nextCursor.'),
    latestCursor: z
      .string()
      .describe('The newest event in the log: pass it as `after` to follow only what happens from now.'),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'none',
  // Not cached: a cursor read is cheap (one index range) and callers want what happened up to now.
  cacheable: false,
});
