import type { InfoRequestType } from './info-types';

/** Request weight of each info request type (the venue allows 1200 weight a minute per IP). */
export const INFO_REQUEST_WEIGHT: Readonly<Record<InfoRequestType, number>> = Object.freeze({
  allMids: 2,
  l2Book: 2,
  candleSnapshot: 20,
  metaAndAssetCtxs: 20,
});

/** The venue's default budget: request weight a minute per IP. */
export const DEFAULT_WEIGHT_PER_MINUTE = 1200;

/** candleSnapshot costs its base weight plus 1 per 60 candles returned. */
export function candleSnapshotWeight(candles: number): number {
  return INFO_REQUEST_WEIGHT.candleSnapshot + Math.floor(candles / 60);
}

/** The extra weight a candleSnapshot answer adds after the base weight was charged. */
export function candleSnapshotExtraWeight(candles: number): number {
  return Math.floor(candles / 60);
}
