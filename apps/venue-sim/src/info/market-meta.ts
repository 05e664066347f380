import type { AssetCtx, AssetMeta, Meta } from '@paper/upstream';
import { MARKETS, type MarketSpec } from '../markets/market-spec';

/** One tier of a margin table: from `lowerBound` USD of position value, at most `maxLeverage`. */
export interface MarginTier {
  lowerBound: string;
  maxLeverage: number;
}

export interface MarginTable {
  description: string;
  marginTiers: MarginTier[];
}

/**
 * The venue's meta: assets with their margin table, the margin tables, and the collateral token (USDC, spot token 0).
 */
export interface PerpMeta extends Meta {
  universe: Array<AssetMeta & { marginTableId: number }>;
  marginTables: Array<[number, MarginTable]>;
  collateralToken: number;
}

/**
 * Margin tables as the venue publishes them: ids below 50 are the plain tables (one tier at that leverage),
 * higher ids are tiered tables that lower the leverage for large positions (BTC and ETH use them).
 */
const TIERED: ReadonlyArray<[number, MarginTable]> = [
  [
    55,
    {
      description: 'tiered 25x',
      marginTiers: [
        { lowerBound: '0.0', maxLeverage: 25 },
        { lowerBound: '100000000.0', maxLeverage: 15 },
      ],
    },
  ],
  [
    56,
    {
      description: 'tiered 40x',
      marginTiers: [
        { lowerBound: '0.0', maxLeverage: 40 },
        { lowerBound: '150000000.0', maxLeverage: 20 },
      ],
    },
  ],
];
const MARGIN_TABLE_OF: Readonly<Record<MarketSpec['coin'], number>> = { BTC: 56, ETH: 55 };
const PLAIN_LEVERAGES = [3, 5, 10, 20, 25, 40, 50];

/** Every margin table by id: the plain ones and the tiered ones. */
export const MARGIN_TABLES: ReadonlyMap<number, MarginTable> = new Map<number, MarginTable>([
  ...PLAIN_LEVERAGES.map((leverage): [number, MarginTable] => [
    leverage,
    { description: '', marginTiers: [{ lowerBound: '0.0', maxLeverage: leverage }] },
  ]),
  ...TIERED,
]);

export function perpMeta(): PerpMeta {
  return {
    universe: MARKETS.map((m) => ({
      szDecimals: m.szDecimals,
      name: m.coin,
      maxLeverage: m.maxLeverage,
      marginTableId: MARGIN_TABLE_OF[m.coin],
    })),
    marginTables: [...TIERED],
    collateralToken: 0,
  };
}

/** The largest market order notional per leverage band (`maxMarketOrderNtls`). */
export function maxMarketOrderNotionals(): Array<[number, string]> {
  return [...new Set(MARKETS.map((m) => m.maxLeverage))]
    .sort((a, b) => b - a)
    .map((leverage) => [leverage, leverage >= 40 ? '15000000.0' : '4000000.0']);
}

/** The spot side: no spot pairs are simulated; USDC (token 0) is the perps' collateral. */
export function spotMeta() {
  return {
    universe: [],
    tokens: [
      {
        name: 'USDC',
        szDecimals: 8,
        weiDecimals: 8,
        index: 0,
        tokenId: '0x6d1e7cde53ba9467b783cb7c530ce054' as const,
        isCanonical: true,
        evmContract: null,
        fullName: null,
        deployerTradingFeeShare: '0.0',
      },
    ],
  };
}

/** The default perp dex is the only one (`perpDexs` lists it as null). */
export const PERP_DEXS = [null] as const;

/** Whether a `dex` argument names the only (default) dex. */
export const isDefaultDex = (dex: string | undefined): boolean => dex === undefined || dex === '';

export type { AssetCtx };
