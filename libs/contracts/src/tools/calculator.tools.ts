import { z } from 'zod';
import { READ_ONLY, defineTool } from './tool-definition';
import {
  leverageField,
  marginUsdField,
  marketField,
  positionTerms,
  price,
  priceField,
  sideField,
  usd,
} from './tool-fields';

export const CALCULATE_POSITION = defineTool({
  name: 'calculate_position',
  title: 'Position calculator',
  description:
    'Pure calculation with the exchange formula, needs no wallet: notional, bust (liquidation) price, distance to ' +
    'liquidation and, with `exitPrice`, the settled PnL at that exit (deadband, win curve and 2% win fee on wins; a ' +
    'loss never exceeds the margin). `entryPrice` defaults to the live ask for a long and the live bid for a short.',
  annotations: READ_ONLY,
  inputSchema: z
    .object({
      market: marketField,
      side: sideField,
      marginUsd: marginUsdField,
      leverage: leverageField,
      entryPrice: priceField
        .optional()
        .describe(
          'Entry price (> 0, at most 100,000,000). Defaults to the live ask for a long, the live bid for a short.',
        ),
      exitPrice: priceField.optional().describe('Target exit price (> 0, at most 100,000,000) to settle at.'),
    })
    .strict(),
  outputSchema: z.looseObject({
    ...positionTerms,
    entrySource: z.enum(['given', 'live_ask', 'live_bid']),
    bustPrice: price,
    liquidationDistancePercent: z.number(),
    deadband: price.describe('Wins within this distance of entry are settled at entry.'),
    winFeePercent: z.number(),
    exit: z
      .object({
        exitPrice: price,
        liquidated: z.boolean(),
        pnlUsd: usd.describe('Settled PnL: payout after the win curve and fee, or the loss (at most the margin).'),
        rawPnlUsd: usd,
        haircutUsd: usd,
        feeUsd: usd,
        keepRatio: z.number().nullable(),
        returnPercent: z.number().describe('pnlUsd relative to the margin, in percent.'),
      })
      .nullable(),
    exchangeLimits: z.object({
      accepted: z
        .boolean()
        .describe('Whether the exchange limits (minimum margin and notional, maximum notional) allow this size.'),
      issue: z.string().nullable(),
    }),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'none',
  cacheable: true,
});
