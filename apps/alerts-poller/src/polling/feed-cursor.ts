import type { TradeEvent } from '../tool-api/tool-data';

/** The recent-trades feed answers at most this many events. */
export const FEED_PAGE_SIZE = 50;

/**
 * Where the global trade feed was read up to: the newest event time and the events seen within the
 * overlap window (an event committed late can carry a time slightly older than one already seen).
 */
export interface FeedCursor {
  newest: number | null;
  /** `${type}:${positionId}` -> event time (ms), pruned to the overlap window. */
  seen: Record<string, number>;
  /** The exchange event log's cursor: trades after it are read page by page (get_events), none missed. */
  eventId?: string;
}

export const eventKey = (e: TradeEvent): string => `${e.type}:${e.positionId}`;

export interface FeedRead {
  fresh: TradeEvent[];
  cursor: FeedCursor;
  /** The page was full and everything on it is newer than the cursor: events may have been missed. */
  gap: boolean;
}

/** Splits a feed page into events not seen before and the cursor to remember. */
export function readFeed(
  cursor: FeedCursor | undefined,
  trades: readonly TradeEvent[],
  overlapMs: number,
  pageSize = FEED_PAGE_SIZE,
): FeedRead {
  const seen: Record<string, number> = { ...(cursor?.seen ?? {}) };
  let newest = cursor?.newest ?? null;
  const floor = newest === null ? -Infinity : newest - overlapMs;
  const fresh: TradeEvent[] = [];
  for (const e of trades) {
    const t = Date.parse(e.time);
    if (Number.isNaN(t)) continue;
    const key = eventKey(e);
    if (key in seen || t < floor) continue;
    fresh.push(e);
    seen[key] = t;
    if (newest === null || t > newest) newest = t;
  }
  const gap = pageHasGap(cursor?.newest ?? null, trades, pageSize);
  if (newest !== null) {
    for (const [key, t] of Object.entries(seen)) if (t < newest - overlapMs) delete seen[key];
  }
  fresh.sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  return { fresh, cursor: { newest, seen }, gap };
}

/** A full page whose oldest event is newer than everything read before: the page may not reach back far enough. */
export function pageHasGap(
  cursorNewest: number | null,
  trades: readonly TradeEvent[],
  pageSize = FEED_PAGE_SIZE,
): boolean {
  if (cursorNewest === null || trades.length < pageSize) return false;
  const oldest = Math.min(...trades.map((e) => Date.parse(e.time)).filter((t) => !Number.isNaN(t)));
  return oldest > cursorNewest;
}
