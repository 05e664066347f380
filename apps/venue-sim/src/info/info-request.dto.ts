import { CANDLE_INTERVALS } from '@paper/upstream';
import { z } from 'zod';
import { InfoError, InfoErrorCode } from './info.exception';

const time = z.number().int().nonnegative();
const dex = z.string().optional();
const coin = z.string().min(1);
const plain = <T extends string>(type: T) => z.object({ type: z.literal(type) });

/**
 * The /info request bodies the simulator answers: the venue's market data (extra fields are ignored, as on the venue).
 */
export const infoRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('allMids'), dex }),
  z.object({
    type: z.literal('l2Book'),
    coin,
    nSigFigs: z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)]).nullish(),
    mantissa: z.union([z.literal(2), z.literal(5)]).nullish(),
  }),
  z.object({
    type: z.literal('candleSnapshot'),
    req: z.object({ coin, interval: z.enum(CANDLE_INTERVALS), startTime: time, endTime: time.nullish() }),
  }),
  z.object({ type: z.literal('meta'), dex }),
  z.object({ type: z.literal('metaAndAssetCtxs'), dex }),
  plain('allPerpMetas'),
  plain('perpDexs'),
  z.object({ type: z.literal('perpsAtOpenInterestCap'), dex }),
  z.object({ type: z.literal('marginTable'), id: z.number().int().nonnegative() }),
  plain('maxMarketOrderNtls'),
  plain('predictedFundings'),
  z.object({ type: z.literal('fundingHistory'), coin, startTime: time, endTime: time.nullish() }),
  z.object({ type: z.literal('recentTrades'), coin }),
  plain('exchangeStatus'),
  plain('perpDeployAuctionStatus'),
  plain('spotMeta'),
  plain('spotMetaAndAssetCtxs'),
]);

export type InfoRequest = z.infer<typeof infoRequestSchema>;
export type InfoRequestType = InfoRequest['type'];

/**
 * Request types of the venue that read one user's (or vault's, or validator's) state, or the deploy and
 * staking machinery: the simulator has no such state, so it refuses them clearly instead of inventing it.
 */
export const NOT_SIMULATED_TYPES: ReadonlySet<string> = new Set([
  'clearinghouseState',
  'openOrders',
  'frontendOpenOrders',
  'userFills',
  'userFillsByTime',
  'userTwapSliceFills',
  'userTwapSliceFillsByTime',
  'userRateLimit',
  'orderStatus',
  'historicalOrders',
  'twapHistory',
  'userFunding',
  'userNonFundingLedgerUpdates',
  'userFees',
  'userRole',
  'userVaultEquities',
  'userToMultiSigSigners',
  'userAbstraction',
  'userDexAbstraction',
  'userBorrowLendInterest',
  'activeAssetData',
  'spotClearinghouseState',
  'spotDeployState',
  'portfolio',
  'subAccounts',
  'subAccounts2',
  'referral',
  'maxBuilderFee',
  'approvedBuilders',
  'extraAgents',
  'isVip',
  'legalCheck',
  'preTransferCheck',
  'delegations',
  'delegatorSummary',
  'delegatorHistory',
  'delegatorRewards',
  'vaultDetails',
  'vaultSummaries',
  'leadingVaults',
  'validatorSummaries',
  'validatorL1Votes',
  'gossipRootIps',
  'gossipPriorityAuctionStatus',
  'webData2',
  'borrowLendUserState',
  'borrowLendReserveState',
  'allBorrowLendReserveStates',
  'liquidatable',
  'tokenDetails',
  'spotPairDeployAuctionStatus',
  'perpDexLimits',
  'perpDexStatus',
  'usdcRouting',
  'outcomeMeta',
  'outcomeTemplates',
  'settledOutcome',
  'perpAnnotation',
  'perpConciseAnnotations',
  'perpCategories',
]);

/** Parses a body, or fails with 400 and the venue's wording (or `not_simulated` for user and account requests). */
export function parseInfoRequest(body: unknown): InfoRequest {
  const type = typeof body === 'object' && body !== null ? (body as { type?: unknown }).type : undefined;
  if (typeof type === 'string' && NOT_SIMULATED_TYPES.has(type)) {
    throw new InfoError(
      InfoErrorCode.NotSimulated,
      400,
      `venue-sim simulates the venue's market data only: "${type}" reads account, vault, staking or deploy state, ` +
        `which the simulator does not have. ` +
        'Send it to the real venue (UPSTREAM_URL=https://api.hyperliquid.xyz); paper accounts are read through the ' +
        'tool API.',
    );
  }
  const result = infoRequestSchema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw invalid(`${where}${issue?.message ?? 'invalid body'}`);
  }
  const request = result.data;
  if (request.type === 'l2Book' && request.mantissa && request.nSigFigs !== 5)
    throw invalid('mantissa: only allowed with nSigFigs 5');
  if ('dex' in request && request.dex)
    throw invalid(`dex: unknown perp dex "${request.dex.slice(0, 40)}"; the simulator has only the default dex ("")`);
  return request;
}

function invalid(detail: string): InfoError {
  return new InfoError(
    InfoErrorCode.InvalidRequest,
    400,
    `Failed to deserialize the JSON body into the target type: ${detail}`,
  );
}
