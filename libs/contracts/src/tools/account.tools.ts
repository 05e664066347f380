import { z } from 'zod';
import { READ_ONLY, defineTool } from './tool-definition';
import {
  PORTFOLIO_RANGES,
  guardrailsData,
  isoTime,
  marketField,
  nullableIso,
  optionalWalletField,
  price,
  sideField,
  usd,
  positionTerms,
} from './tool-fields';

export const TRADE_HISTORY_PAGE_SIZE = 75;

const openPosition = z.object({
  positionId: z.string(),
  ...positionTerms,
  markPrice: price,
  bustPrice: price.describe('The position is liquidated when the mark reaches this price.'),
  estimatedPnlUsd: usd.describe('Settled PnL if closed now at the mark (win curve and 2% win fee applied).'),
  estimatedPnlPercent: z.number(),
  liquidationDistancePercent: z.number().describe('|mark - bust| / mark, in percent.'),
  liquidationRiskPercent: z.number().describe('0 at or better than entry, 100 at the bust price.'),
  openedAt: isoTime,
});

const pendingIntent = z.object({
  intentId: z.string(),
  kind: z.enum(['open', 'close', 'cancel']),
  market: marketField.nullable(),
  side: sideField.nullable(),
  marginUsd: usd.nullable(),
  leverage: z.number().int().nullable(),
  positionIds: z.array(z.string()),
  submittedAt: isoTime,
});

export const sessionKeyData = z.object({
  address: z.string(),
  label: z.string().nullable(),
  active: z.boolean(),
  expiresAt: isoTime,
  revokedAt: nullableIso,
  guardrails: guardrailsData,
});

export const GET_ACCOUNT = defineTool({
  name: 'get_account',
  title: 'Account',
  description:
    'An account: free balance, locked margin, queued winnings, equity, open positions (each with live estimated PnL, ' +
    'bust price and distance to liquidation), pending intents, session keys and lifetime stats. Any wallet can be ' +
    'inspected; without `wallet` it shows the connected wallet.',
  annotations: READ_ONLY,
  inputSchema: z.object({ wallet: optionalWalletField }).strict(),
  outputSchema: z.looseObject({
    wallet: z.string(),
    exists: z.boolean().describe('False when the wallet has never used the exchange.'),
    displayName: z.string().nullable(),
    freeUsd: usd,
    lockedUsd: usd,
    queuedUsd: usd.describe('Winnings waiting in the payout queue; usable as margin, not withdrawable yet.'),
    unrealizedPnlUsd: usd,
    equityUsd: usd.describe('free + queued + locked margin + estimated PnL of open positions.'),
    paper: z.number().describe('PAPER reward tokens held.'),
    paperStaked: z.number(),
    positions: z.array(openPosition),
    pendingIntents: z.array(pendingIntent),
    sessionKeys: z.array(sessionKeyData),
    lifetime: z.object({
      realizedPnlUsd: usd,
      volumeUsd: usd,
      feesPaidUsd: usd,
      stakingRewardsUsd: usd,
      trades: z.number().int(),
      wins: z.number().int(),
      losses: z.number().int(),
      liquidations: z.number().int(),
    }),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'optional',
  cacheable: true,
  view: 'account',
});

export const GET_TRADE_HISTORY = defineTool({
  name: 'get_trade_history',
  title: 'Trade history',
  description:
    'Closed and liquidated positions of a wallet, newest first: entry, exit, settled PnL, fees and PAPER minted. 75 ' +
    'trades per page; `pages` (1 to 10) returns that many pages at once.',
  annotations: READ_ONLY,
  inputSchema: z
    .object({
      wallet: optionalWalletField,
      pages: z.number().int().min(1).max(10).default(1).describe('Pages of 75 trades to return, 1 to 10.'),
    })
    .strict(),
  outputSchema: z.looseObject({
    wallet: z.string(),
    pages: z.number().int(),
    pageSize: z.number().int(),
    hasMore: z.boolean(),
    trades: z.array(
      z.object({
        positionId: z.string(),
        market: marketField,
        side: sideField,
        leverage: z.number().int(),
        marginUsd: usd,
        notionalUsd: usd,
        entryPrice: price,
        exitPrice: price,
        pnlUsd: usd,
        feeUsd: usd,
        paperMinted: z.number(),
        queuedUsd: usd,
        status: z.enum(['closed', 'liquidated']),
        openedAt: isoTime,
        closedAt: isoTime,
      }),
    ),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'optional',
  cacheable: true,
});

export const GET_PORTFOLIO_HISTORY = defineTool({
  name: 'get_portfolio_history',
  title: 'Portfolio history',
  description:
    'The equity curve of a wallet over a range (1h, 1d, 1w, all), oldest first, ending with the live equity.',
  annotations: READ_ONLY,
  inputSchema: z
    .object({
      wallet: optionalWalletField,
      range: z.enum(PORTFOLIO_RANGES).default('1d').describe('Range: 1h, 1d, 1w or all.'),
    })
    .strict(),
  outputSchema: z.looseObject({
    wallet: z.string(),
    range: z.enum(PORTFOLIO_RANGES),
    points: z.array(z.object({ time: isoTime, equityUsd: usd, freeUsd: usd, lockedUsd: usd, unrealizedPnlUsd: usd })),
    changeUsd: usd,
    changePercent: z.number().nullable(),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'optional',
  cacheable: true,
});

export const GET_DEPOSIT_INFO = defineTool({
  name: 'get_deposit_info',
  title: 'Deposit info',
  description:
    "How to fund an account: the wallet's personal deposit address, the minimum deposit, the one-time activation " +
    'fee, ' +
    "the minimum withdrawal, and the wallet's current chain balances of USDC and the gas token. Read-only: it never " +
    'moves funds.',
  annotations: READ_ONLY,
  inputSchema: z.object({ wallet: optionalWalletField }).strict(),
  outputSchema: z.looseObject({
    wallet: z.string(),
    mode: z.literal('paper'),
    depositAddress: z.string(),
    minimumDepositUsd: usd,
    activationFeeUsd: usd,
    activated: z.boolean(),
    minimumWithdrawalUsd: usd,
    chainBalances: z.object({
      usdc: usd.describe('USDC held by the wallet on chain.'),
      gas: z.number().describe('Native gas token (ETH) held by the wallet on chain.'),
      depositAddressUsdc: usd.describe('USDC waiting at the deposit address, not yet credited.'),
    }),
    instructions: z.string(),
  }),
  family: 'public',
  scope: 'trade:read',
  wallet: 'optional',
  cacheable: true,
});
