import {
  EXCHANGE_EVENT_TYPES,
  EXCHANGE_EVENTS_CHANNEL,
  type ExchangeEvent,
  type ExchangeEventData,
  type ExchangeEventType,
} from '@paper/contracts';

import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { IdRow, int8, market, timestamp } from './row-fields';
import type { MarketName } from '@paper/markets';

/**
 * The exchange's event log (`exchange.events`): appended in the transaction of the change it records,
 * read by cursor. Ids are strictly increasing in commit order: every writer takes one transaction-level
 * advisory lock before inserting, so a transaction that inserted events holds the lock until it commits
 * and no later id can become visible before it. Readers page with `id > cursor` and never skip.
 */

/**
 * Advisory lock of event appends (two-key form; also taken by the market-status trigger of the event-log migration).
 */
export const EVENT_APPEND_LOCK: readonly [number, number] = [0x45564e54, 1];

/** An event to append; `wallet` and `market` default to null. */
export interface NewExchangeEvent<T extends ExchangeEventType = ExchangeEventType> {
  type: T;
  wallet?: string | null;
  market?: MarketName | null;
  data: ExchangeEventData<T>;
}

/** Builds a typed event to append (keeps `type` and `data` in step). */
export function exchangeEvent<T extends ExchangeEventType>(
  type: T,
  data: ExchangeEventData<T>,
  scope: { wallet?: string | null; market?: MarketName | null } = {},
): NewExchangeEvent<T> {
  return { type, data, wallet: scope.wallet ?? null, market: scope.market ?? null };
}

export const EventRow = z.object({
  id: int8,
  type: z.enum(EXCHANGE_EVENT_TYPES),
  time: timestamp,
  wallet: z.string().nullable(),
  market: market.nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type EventRow = z.infer<typeof EventRow>;

export const EventLogBoundsRow = z.object({ oldest: int8.nullable(), newest: int8.nullable() });
export type EventLogBoundsRow = z.infer<typeof EventLogBoundsRow>;

export const CountRow = z.object({ n: int8 });
export type CountRow = z.infer<typeof CountRow>;

function toEvent(row: EventRow): ExchangeEvent {
  return {
    id: String(row.id),
    type: row.type,
    time: new Date(row.time).toISOString(),
    wallet: row.wallet,
    market: row.market,
    data: row.data,
  };
}

/**
 * Appends events inside the caller's transaction (call it last, just before commit: the append lock is
 * held until the transaction ends) and notifies stream servers on commit with the highest id, in one
 * statement: the lock is taken before the first row (and its id) is produced.
 * Returns the ids written, in order.
 */
export async function appendEvents(db: QueryExecutor, events: readonly NewExchangeEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await queryRows<IdRow>(
    db,
    `WITH append_lock AS (
       SELECT pg_advisory_xact_lock($5, $6)
     ), appended AS (
       INSERT INTO exchange.events (type, wallet, market, data)
       SELECT v.type, v.wallet, v.market, v.data
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::jsonb[])
           WITH ORDINALITY AS v(type, wallet, market, data, n)
        CROSS JOIN append_lock
        ORDER BY v.n
       RETURNING id
     ), notified AS (
       SELECT pg_notify($7, max(id)::text) FROM appended
     )
     SELECT id FROM appended CROSS JOIN (SELECT count(*) FROM notified) notified_count`,
    [
      events.map((e) => e.type),
      events.map((e) => e.wallet?.toLowerCase() ?? null),
      events.map((e) => e.market ?? null),
      events.map((e) => JSON.stringify(e.data)),
      ...EVENT_APPEND_LOCK,
      EXCHANGE_EVENTS_CHANNEL,
    ],
  );
  return rows.map((r) => String(r.id)).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

/** Which events a reader wants: after a cursor, optionally only some types, one wallet or one market. */
export interface EventQuery {
  /** Cursor: events with a greater id. '0' reads from the oldest retained event. */
  after: string;
  limit: number;
  types?: readonly ExchangeEventType[];
  wallet?: string;
  market?: MarketName;
}

/** A page of events in id order, oldest first. */
export async function readEvents(db: QueryExecutor, q: EventQuery): Promise<ExchangeEvent[]> {
  const rows = await queryRows<EventRow>(
    db,
    `SELECT id, type, time, wallet, market, data FROM exchange.events
      WHERE id > $1::bigint
        AND ($2::varchar[] IS NULL OR type = ANY($2::varchar[]))
        AND ($3::varchar IS NULL OR wallet = $3::varchar)
        AND ($4::varchar IS NULL OR market = $4::varchar)
      ORDER BY id LIMIT $5`,
    [q.after, q.types ?? null, q.wallet?.toLowerCase() ?? null, q.market ?? null, q.limit],
  );
  return rows.map(toEvent);
}

/** The log's bounds: the oldest retained id and the newest id ('0' when empty). */
export async function eventLogBounds(db: QueryExecutor): Promise<{ oldest: string; newest: string }> {
  const rows = await queryRows<EventLogBoundsRow>(
    db,
    `SELECT min(id) AS oldest, max(id) AS newest FROM exchange.events`,
  );
  return { oldest: String(rows[0]?.oldest ?? '0'), newest: String(rows[0]?.newest ?? '0') };
}

/** Deletes events older than `before` (retention); returns how many were deleted. */
export async function pruneEvents(db: QueryExecutor, before: Date): Promise<number> {
  const rows = await queryRows<CountRow>(
    db,
    `WITH gone AS (DELETE FROM exchange.events WHERE time < $1 RETURNING 1) SELECT count(*)::text AS n FROM gone`,
    [before],
  );
  return Number(rows[0]?.n ?? 0);
}
