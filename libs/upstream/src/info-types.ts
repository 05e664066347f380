/** Request and response shapes of the Hyperliquid info API subset used here. Numbers are decimal strings, times ms. */
import type { CandleInterval } from './candle-intervals';

export interface Level {
  px: string;
  sz: string;
  n: number;
}

export interface L2Book {
  coin: string;
  time: number;
  /** [bids (best first), asks (best first)]. */
  levels: [Level[], Level[]];
}

export interface BestBidAsk {
  coin: string;
  bid: string;
  ask: string;
  time: number;
}

export interface Candle {
  /** Open time (ms). */
  t: number;
  /** Close time (ms, inclusive). */
  T: number;
  s: string;
  i: string;
  o: string;
  c: string;
  h: string;
  l: string;
  v: string;
  n: number;
}

export interface CandleSnapshotRequest {
  coin: string;
  interval: CandleInterval;
  startTime: number;
  endTime?: number;
}

export interface AssetMeta {
  name: string;
  szDecimals: number;
  maxLeverage: number;
}

export interface Meta {
  universe: AssetMeta[];
}

export interface AssetCtx {
  markPx: string;
  midPx: string | null;
  oraclePx: string;
  openInterest: string;
  dayNtlVlm: string;
  prevDayPx: string;
  funding: string;
  premium?: string | null;
  impactPxs?: string[] | null;
  dayBaseVlm?: string;
}

export type InfoRequestType = 'allMids' | 'l2Book' | 'candleSnapshot' | 'metaAndAssetCtxs';

/** At most this many (the latest) candles come back from one candleSnapshot request. */
export const MAX_CANDLES_PER_REQUEST = 5000;
