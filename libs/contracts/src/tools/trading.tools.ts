import { z } from 'zod';
import { defineTool, QUOTE_VALIDITY_TEXT } from './tool-definition';
import {
  guardrailsData,
  intentIdField,
  isoTime,
  leverageField,
  marginUsdField,
  clientOrderIdField,
  marketField,
  positionIdField,
  price,
  sideField,
  usd,
  positionTerms,
} from './tool-fields';

export const MAX_CLOSE_POSITION_IDS = 120;

const tradeArgs = { market: marketField, side: sideField, marginUsd: marginUsdField, leverage: leverageField };

const scenario = z.object({
  label: z.string().describe('"-5%", "-1%", "+1%", "+5%" price move from entry, or "bust".'),
  exitPrice: price,
  liquidated: z.boolean(),
  pnlUsd: usd,
});

export const PREVIEW_TRADE = defineTool({
  name: 'preview_trade',
  title: 'Preview a trade',
  description:
    'Step 1 of 2 to open a position. Checks the trade against the exchange limits, the account balance and the ' +
    "owner's guardrails, estimates the entry (the current mid), bust price and PnL scenarios, and returns a " +
    '`quoteId` ' +
    `valid for ${QUOTE_VALIDITY_TEXT}. \`marginUsd\` is the most the position can lose; notional = marginUsd x ` +
    `leverage. Show the ` +
    'preview to the user, then call open_position with the same market, side, marginUsd and leverage and the quoteId.',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  inputSchema: z.object(tradeArgs).strict(),
  outputSchema: z.looseObject({
    quoteId: z.string(),
    expiresAt: isoTime,
    validForSeconds: z.number().int(),
    market: marketField,
    side: sideField,
    marginUsd: usd,
    leverage: z.number().int(),
    notionalUsd: usd,
    estimatedEntryPrice: price,
    bid: price,
    ask: price,
    bustPrice: price,
    liquidationDistancePercent: z.number(),
    scenarios: z.array(scenario),
    availableBalanceUsd: usd,
    confirmationRequired: z.boolean(),
    guardrails: guardrailsData,
  }),
  family: 'me-only',
  scope: 'trade:write',
  wallet: 'connected',
  cacheable: false,
  view: 'trade-ticket',
});

const filledPosition = z.object({
  positionId: z.string(),
  ...positionTerms,
  bustPrice: price,
  liquidationDistancePercent: z.number(),
  openedAt: isoTime,
});

export const OPEN_POSITION = defineTool({
  name: 'open_position',
  title: 'Open a position',
  description:
    "Step 2 of 2: opens a real position with the user's funds, signed by the session key. Consequential: get the " +
    "user's explicit confirmation of the previewed trade first. Pass the `quoteId` from preview_trade with identical " +
    'market, side, marginUsd and leverage (required when the owner enabled confirmations, the default); a quote ' +
    `expires after ${QUOTE_VALIDITY_TEXT} and can be used once. Waits for the fill and reports it; if the outcome ` +
    `is not known in ` +
    'time the intent is reported as pending with its `intentId`: check it with get_intent_status. To retry safely ' +
    'after a lost answer, send a `clientOrderId` and repeat the call with the same one.',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  inputSchema: z
    .object({
      ...tradeArgs,
      quoteId: z.string().min(1).max(128).optional().describe('The quoteId returned by preview_trade.'),
      clientOrderId: clientOrderIdField.optional(),
    })
    .strict(),
  outputSchema: z.looseObject({
    status: z.enum(['filled', 'pending']),
    intentId: z.string(),
    position: filledPosition.nullable(),
  }),
  family: 'me-only',
  scope: 'trade:write',
  wallet: 'connected',
  cacheable: false,
});

const closeResult = z.object({
  positionId: z.string(),
  status: z.enum(['closed', 'liquidated', 'pending', 'skipped']),
  intentId: z.string().nullable(),
  market: marketField.nullable(),
  side: sideField.nullable(),
  entryPrice: price.nullable(),
  exitPrice: price.nullable(),
  pnlUsd: usd.nullable(),
  feeUsd: usd.nullable(),
  queuedUsd: usd.nullable(),
  paperMinted: z.number().nullable(),
  reason: z.string().nullable(),
});

export const CLOSE_POSITIONS = defineTool({
  name: 'close_positions',
  title: 'Close positions',
  description:
    'Closes open positions at the current mid, signed by the session key, and reports each settled result. ' +
    "Consequential: get the user's explicit confirmation first. Pass `positionIds` (at most 120), or `all: true` " +
    '(optionally narrowed by `market`). Positions close whole. Positions whose outcome is not known in time are ' +
    'reported as pending with their intentId.',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  inputSchema: z
    .object({
      positionIds: z
        .array(positionIdField)
        .min(1)
        .max(MAX_CLOSE_POSITION_IDS)
        .optional()
        .describe('Positions to close, at most 120.'),
      all: z.boolean().optional().describe('Close every open position.'),
      market: marketField.optional().describe('With all=true: only this market.'),
      clientOrderId: clientOrderIdField.optional(),
    })
    .strict(),
  outputSchema: z.looseObject({
    results: z.array(closeResult),
    closed: z.number().int(),
    pending: z.number().int(),
    totalPnlUsd: usd,
    intentIds: z.array(z.string()),
  }),
  family: 'me-only',
  scope: 'trade:write',
  wallet: 'connected',
  cacheable: false,
});

export const CANCEL_INTENT = defineTool({
  name: 'cancel_intent',
  title: 'Cancel an intent',
  description:
    'Cancels a submitted intent that is still queued (not yet executed), signed by the session key. An intent that ' +
    'already executed cannot be cancelled: close the position instead.',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  inputSchema: z.object({ intentId: intentIdField, clientOrderId: clientOrderIdField.optional() }).strict(),
  outputSchema: z.looseObject({
    intentId: z.string(),
    cancelIntentId: z.string(),
    status: z.enum(['cancelled', 'pending', 'executed', 'refused', 'expired', 'queued']),
    message: z.string(),
  }),
  family: 'me-only',
  scope: 'trade:write',
  wallet: 'connected',
  cacheable: false,
});
