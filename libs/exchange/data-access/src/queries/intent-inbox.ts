import {
  EXCHANGE_EVENTS_CHANNEL,
  type IntentResult,
  isIntentResult,
  type OwnerActionResult,
  type SignedIntentPayload,
  type SignedOwnerActionPayload,
} from '@paper/contracts';
import type { IntentStatus } from '../entities/intent.entity';
import type { OwnerActionEntity } from '../entities/owner-action.entity';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { IdRow, int8, intentKind, intentStatus, ownerActionStatus, timestamp } from './row-fields';
import { EVENT_APPEND_LOCK } from './event-log';

/**
 * The inbox of the exchange: `exchange.intents` and `exchange.owner_actions` rows written `queued` when
 * an intent or owner action is accepted, before the caller is answered. The executor is the only writer
 * of everything else (it claims queued rows and stores their results). The id (EIP-712 digest) is the
 * idempotency key: accepting the same signed payload again finds the row; a different payload under an
 * id that is taken is a conflict and is not accepted.
 */
type OwnerActionStatus = OwnerActionEntity['status'];

export type Acceptance<S, R> =
  /** A new row was written. */
  | { state: 'accepted'; id: string }
  /** The same payload was accepted before; its status and, once final, its result. */
  | { state: 'known'; id: string; status: S; result: R | null }
  /** The id is taken by a different payload (or signature): nothing was accepted. */
  | { state: 'conflict'; id: string };

/** What an accepting statement returns per input: written now, or the row found under the id. */
export const AcceptRow = z.object({
  id: z.string(),
  inserted: z.boolean(),
  status: z.string().nullable(),
  result: z.unknown().nullable(),
  same: z.boolean().nullable(),
});
type AcceptRow<S, R> = Omit<z.infer<typeof AcceptRow>, 'status' | 'result'> & { status: S | null; result: R | null };

/**
 * The `intent.accepted` events of the rows an accepting statement inserted (CTEs following its
 * `inserted` CTE), written by the same statement: the event-log append lock is taken before any event id
 * is drawn (the lock row is joined into the insert), and the stream servers are notified on commit.
 */
const ACCEPTED_EVENTS = `append_lock AS (
       SELECT pg_advisory_xact_lock(${EVENT_APPEND_LOCK[0]}, ${EVENT_APPEND_LOCK[1]}) FROM (SELECT 1 FROM inserted
         LIMIT 1) any_inserted
     ), accepted_events AS (
       INSERT INTO exchange.events (type, wallet, data)
       SELECT 'intent.accepted', ins.wallet, jsonb_build_object('intentId', ins.id, 'kind', ins.kind) FROM inserted ins
         CROSS JOIN append_lock ORDER BY ins.id
       RETURNING id
     ), notified AS (
       SELECT pg_notify('${EXCHANGE_EVENTS_CHANNEL}', max(id)::text) FROM accepted_events HAVING count(*) > 0
     )`;

/**
 * The signed expiry as stored: far-future values are clamped so they fit a timestamp (such intents are refused when
 * they run).
 */
export function storableExpiry(expiresAt: string, now = Date.now()): number {
  const limit = Math.floor(now / 1000) + 10 * 365 * 86400;
  return expiresAt.length > 12 ? limit : Math.min(Number(expiresAt), limit);
}

/**
 * Accepts signed intents (all in one statement, so either all are written or none). Each row's
 * acceptance time is the clock at its insert, so intents accepted together keep their order.
 */
export async function acceptIntents(
  db: QueryExecutor,
  payloads: readonly SignedIntentPayload[],
): Promise<Acceptance<IntentStatus, IntentResult>[]> {
  if (payloads.length === 0) return [];
  const rows = await queryRows<AcceptRow<IntentStatus, IntentResult>>(
    db,
    `WITH input AS (
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::jsonb[], $5::varchar[], $6::varchar[],
         $7::double precision[])
         WITH ORDINALITY AS v(id, wallet, kind, payload, session_key, signature, expires_at, n)
     ), inserted AS (
       INSERT INTO exchange.intents (id, wallet, kind, payload, session_key, signature, status, expires_at, created_at)
       SELECT id, wallet, kind, payload, session_key, signature, 'queued', to_timestamp(expires_at), clock_timestamp()
         FROM input ORDER BY n
       ON CONFLICT (id) DO NOTHING
       RETURNING id, wallet, kind
     ), ${ACCEPTED_EVENTS}
     SELECT v.id, ins.id IS NOT NULL AS inserted, i.status, i.result,
            (i.kind = v.kind AND i.payload = v.payload AND i.session_key = v.session_key AND i.signature = v.signature)
              AS same
       FROM input v LEFT JOIN inserted ins ON ins.id = v.id LEFT JOIN exchange.intents i ON i.id = v.id
      CROSS JOIN (SELECT count(*) FROM notified) notified_count
      ORDER BY v.n`,
    [
      payloads.map((p) => p.intentId.toLowerCase()),
      payloads.map((p) => p.message.wallet.toLowerCase()),
      payloads.map((p) => p.kind),
      payloads.map((p) => JSON.stringify(p.message)),
      payloads.map((p) => p.sessionKey.toLowerCase()),
      payloads.map((p) => p.signature.toLowerCase()),
      payloads.map((p) => storableExpiry(p.message.expiresAt)),
    ],
  );
  return settleAcceptance(rows, (ids) => readIntents(db, ids));
}

/** Accepts a signed owner action. */
export async function acceptOwnerAction(
  db: QueryExecutor,
  payload: SignedOwnerActionPayload,
): Promise<Acceptance<OwnerActionStatus, OwnerActionResult>> {
  const rows = await queryRows<AcceptRow<OwnerActionStatus, OwnerActionResult>>(
    db,
    `WITH inserted AS (
       INSERT INTO exchange.owner_actions (id, wallet, kind, payload, signature, status)
       VALUES ($1, $2, $3, $4::jsonb, $5, 'queued')
       ON CONFLICT (id) DO NOTHING
       RETURNING id, wallet, kind
     ), ${ACCEPTED_EVENTS}
     SELECT $1::varchar AS id, EXISTS (SELECT 1 FROM inserted) AS inserted, a.status, a.result,
            (a.kind = $3 AND a.payload = $4::jsonb AND a.signature = $5) AS same
       FROM (SELECT 1) one LEFT JOIN exchange.owner_actions a ON a.id = $1
      CROSS JOIN (SELECT count(*) FROM notified) notified_count`,
    [
      payload.actionId.toLowerCase(),
      payload.message.wallet.toLowerCase(),
      payload.kind,
      JSON.stringify(payload.message),
      payload.signature.toLowerCase(),
    ],
  );
  const [acceptance] = await settleAcceptance(rows, (ids) => readOwnerActions(db, ids));
  return acceptance!;
}

/**
 * Turns the rows of an accepting statement into acceptances. A row another transaction inserted while
 * the statement ran is invisible to its snapshot: it is read again (and taken as the same intent only
 * if its payload matches, which the read cannot tell, so such a row counts as known).
 */
async function settleAcceptance<S, R>(
  rows: readonly AcceptRow<S, R>[],
  reread: (ids: string[]) => Promise<readonly { id: string; status: S; result: R | null }[]>,
): Promise<Acceptance<S, R>[]> {
  const unseen = rows.filter((r) => !r.inserted && r.status === null).map((r) => r.id);
  const fresh = new Map(unseen.length > 0 ? (await reread(unseen)).map((r) => [r.id, r]) : []);
  return rows.map((r): Acceptance<S, R> => {
    if (r.inserted) return { state: 'accepted', id: r.id };
    const row = r.status === null ? fresh.get(r.id) : { status: r.status, result: r.result };
    if (!row || r.same === false) return { state: 'conflict', id: r.id };
    return { state: 'known', id: r.id, status: row.status, result: row.result };
  });
}

/** An intent row as readers need it. */
export const IntentRecord = z.object({
  id: z.string(),
  kind: intentKind,
  wallet: z.string(),
  status: intentStatus,
  reason: z.string().nullable(),
  message: z.string().nullable(),
  result: z.custom<IntentResult>(isIntentResult).nullable(),
  created_at: timestamp,
  executed_at: timestamp.nullable(),
});
export type IntentRecord = z.infer<typeof IntentRecord>;

export function readIntents(db: QueryExecutor, ids: readonly string[]): Promise<IntentRecord[]> {
  return queryRows<IntentRecord>(
    db,
    `SELECT id, kind, wallet, status, reason, message, result, created_at, executed_at FROM exchange.intents
       WHERE id = ANY($1::varchar[])`,
    [ids.map((id) => id.toLowerCase())],
  );
}

/** A queued intent with what it was signed with (the pending intents of a wallet). */
export const QueuedIntentRecord = z.object({
  id: z.string(),
  kind: intentKind,
  payload: z.unknown(),
  session_key: z.string(),
  signature: z.string(),
  created_at: timestamp,
});
export type QueuedIntentRecord = z.infer<typeof QueuedIntentRecord>;

export function queuedIntentsOf(db: QueryExecutor, wallet: string, limit = 1000): Promise<QueuedIntentRecord[]> {
  return queryRows<QueuedIntentRecord>(
    db,
    `SELECT id, kind, payload, session_key, signature, created_at FROM exchange.intents
      WHERE wallet = $1 AND status = 'queued' ORDER BY created_at LIMIT $2`,
    [wallet.toLowerCase(), limit],
  );
}

/** A stored owner action result (an object; its fields are the executor's OwnerActionResult). */
export const storedOwnerActionResult = z.custom<OwnerActionResult>(
  (v) => typeof v === 'object' && v !== null && typeof (v as { actionId?: unknown }).actionId === 'string',
);

export const OwnerActionRecord = z.object({
  id: z.string(),
  status: ownerActionStatus,
  result: storedOwnerActionResult.nullable(),
});
export type OwnerActionRecord = z.infer<typeof OwnerActionRecord>;

export function readOwnerActions(db: QueryExecutor, ids: readonly string[]): Promise<OwnerActionRecord[]> {
  return queryRows<OwnerActionRecord>(
    db,
    `SELECT id, status, result FROM exchange.owner_actions WHERE id = ANY($1::varchar[])`,
    [ids.map((id) => id.toLowerCase())],
  );
}

/** Ids of the oldest queued owner actions (the sweeper runs them). */
export async function queuedOwnerActionIds(db: QueryExecutor, limit: number): Promise<string[]> {
  const rows = await queryRows<IdRow>(
    db,
    `SELECT id FROM exchange.owner_actions WHERE status = 'queued' ORDER BY created_at LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.id);
}

/** How many intents and owner actions are queued, and how long the oldest has waited (the sweeper's metrics). */
export const InboxBacklogRow = z.object({
  table: z.enum(['intents', 'owner_actions']),
  n: int8,
  oldest_seconds: z.number().nullable(),
});
export type InboxBacklogRow = z.infer<typeof InboxBacklogRow>;

export function inboxBacklog(db: QueryExecutor): Promise<InboxBacklogRow[]> {
  return queryRows<InboxBacklogRow>(
    db,
    `SELECT 'intents' AS "table", count(*) AS n, extract(epoch FROM now() - min(created_at))::float8 AS oldest_seconds
       FROM exchange.intents WHERE status = 'queued'
     UNION ALL
     SELECT 'owner_actions', count(*), extract(epoch FROM now() - min(created_at))::float8
       FROM exchange.owner_actions WHERE status = 'queued'`,
  );
}
