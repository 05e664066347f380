import { z } from 'zod';
import { READ_ONLY, defineTool } from './tool-definition';
import { guardrailsData, intentIdField, isoTime, nullableIso, usd, walletField } from './tool-fields';

export const INTENT_STATUSES = ['queued', 'executed', 'refused', 'cancelled', 'expired'] as const;

export const GET_TRADING_PERMISSIONS = defineTool({
  name: 'get_trading_permissions',
  title: 'Trading permissions',
  description:
    'What this connection may do: the connected wallet, granted scopes, whether a trading session (session key) is ' +
    "active and when it expires, the owner's guardrails, and how much of the daily notional limit is used today. " +
    'Without a token (public family) it reports that no wallet is connected.',
  annotations: READ_ONLY,
  inputSchema: z.object({}).strict(),
  outputSchema: z.looseObject({
    connected: z.boolean(),
    wallet: z.string().nullable(),
    scopes: z.array(z.string()),
    canRead: z.boolean(),
    canTrade: z.boolean(),
    session: z.object({
      active: z.boolean(),
      address: z.string().nullable(),
      label: z.string().nullable(),
      expiresAt: nullableIso,
    }),
    guardrails: guardrailsData.nullable(),
    daily: z.object({
      limitUsd: usd.nullable(),
      usedUsd: usd,
      remainingUsd: usd.nullable(),
      resetsAt: isoTime.describe('Next UTC midnight.'),
    }),
    openPositions: z.number().int(),
    reason: z.string().nullable().describe('Why trading is not possible, and how to enable it.'),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'none',
  // Not cached (an exception to the 5-second public cache): on the public family it is a constant answer
  // that costs nothing, and on /me it is the caller's own state, read right after connecting or trading.
  cacheable: false,
});

export const GET_INTENT_STATUS = defineTool({
  name: 'get_intent_status',
  title: 'Intent status',
  description:
    'Status of a submitted trading intent: `queued` (still waiting to execute), `executed` (with the positions it ' +
    'opened or closed) or no longer pending (`refused`, `cancelled`, `expired`, with the reason). Use it after ' +
    'open_position or close_positions reported an intent as pending; poll no faster than once per second.',
  annotations: READ_ONLY,
  inputSchema: z
    .object({
      intentId: intentIdField,
      wallet: walletField.optional().describe('Only find the intent if it belongs to this wallet.'),
    })
    .strict(),
  outputSchema: z.looseObject({
    intentId: z.string(),
    status: z.enum(INTENT_STATUSES),
    pending: z.boolean(),
    kind: z.enum(['open', 'close', 'cancel']),
    wallet: z.string(),
    positionIds: z.array(z.string()).describe('Positions opened or closed by the intent.'),
    reason: z.string().nullable(),
    message: z.string().nullable(),
    submittedAt: nullableIso,
    executedAt: nullableIso,
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'none',
  // Not cached (an exception to the 5-second public cache): clients poll it right after a trade reported
  // `pending`, and a cached `queued` would hide the fill for up to 5 seconds.
  cacheable: false,
});
