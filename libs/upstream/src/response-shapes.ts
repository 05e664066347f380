import type { AssetCtx, Candle, L2Book, Level, Meta } from './info-types';
import { UpstreamError } from './upstream-error';

/** Minimal shape checks of venue answers: anything else is a `bad_response`, never a crash downstream. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

function bad(what: string): never {
  throw new UpstreamError('bad_response', `unexpected ${what}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isDecimal = (v: unknown): v is string => typeof v === 'string' && DECIMAL.test(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

export function parseAllMids(body: unknown): Record<string, string> {
  if (!isObject(body)) bad('allMids answer (not an object)');
  for (const [coin, mid] of Object.entries(body)) {
    if (!isDecimal(mid)) bad(`allMids value for ${coin}`);
  }
  return body as Record<string, string>;
}

function parseLevels(side: unknown, name: string): Level[] {
  if (!Array.isArray(side)) bad(`l2Book ${name} side`);
  for (const level of side) {
    if (!isObject(level) || !isDecimal(level['px']) || !isDecimal(level['sz']) || typeof level['n'] !== 'number') {
      bad(`l2Book ${name} level`);
    }
  }
  return side as Level[];
}

export function parseL2Book(body: unknown, coin: string): L2Book {
  if (body === null) throw new UpstreamError('bad_response', `no book for coin ${coin}`);
  if (!isObject(body) || typeof body['coin'] !== 'string' || !isTime(body['time'])) bad('l2Book answer');
  const levels = body['levels'];
  if (!Array.isArray(levels) || levels.length !== 2) bad('l2Book levels');
  return {
    coin: body['coin'],
    time: body['time'],
    levels: [parseLevels(levels[0], 'bid'), parseLevels(levels[1], 'ask')],
  };
}

export function parseCandles(body: unknown): Candle[] {
  if (!Array.isArray(body)) bad('candleSnapshot answer (not an array)');
  for (const c of body) {
    if (!isObject(c) || !isTime(c['t']) || !isTime(c['T'])) bad('candle times');
    for (const field of ['o', 'c', 'h', 'l', 'v'] as const) {
      if (!isDecimal(c[field])) bad(`candle ${field}`);
    }
  }
  return body as Candle[];
}

export function parseMetaAndAssetCtxs(body: unknown): [Meta, AssetCtx[]] {
  if (!Array.isArray(body) || body.length !== 2) bad('metaAndAssetCtxs answer');
  const [meta, ctxs] = body as [unknown, unknown];
  if (!isObject(meta) || !Array.isArray(meta['universe'])) bad('meta');
  for (const asset of meta['universe'] as unknown[]) {
    if (!isObject(asset) || typeof asset['name'] !== 'string' || typeof asset['szDecimals'] !== 'number')
      bad('meta universe entry');
  }
  if (!Array.isArray(ctxs) || ctxs.length !== (meta['universe'] as unknown[]).length) bad('asset contexts');
  for (const ctx of ctxs) {
    if (!isObject(ctx) || !isDecimal(ctx['markPx']) || !isDecimal(ctx['oraclePx'])) bad('asset context');
  }
  return body as [Meta, AssetCtx[]];
}
