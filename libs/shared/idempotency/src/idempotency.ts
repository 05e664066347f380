import { createHash } from 'node:crypto';

/**
 * Idempotency keys with Stripe's semantics, framework-free. A caller sends `Idempotency-Key` with a
 * write; the first request with a key runs, and its answer is kept. The same key again:
 * - with the same arguments: the first answer, marked as a replay (`Idempotent-Replayed: true`);
 * - with other arguments: refused (`409 idempotency_key_mismatch`);
 * - while the first is still running: waits for its answer (bounded), else `409 idempotency_key_in_progress`.
 * Keys are scoped to the caller, kept at least IDEMPOTENCY_RETENTION_MS, then pruned. Answers of 5xx
 * (and requests that crashed) are not kept: the key can be used again.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** Keys are kept this long (then pruned): a retry within it gets the first answer. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** A retry waits this long at most for the first request's answer. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
/** A request still `running` after this long is taken to have died: its key can be taken over. */
export const IDEMPOTENCY_STALE_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Whether a header value can be an idempotency key: 1 to 255 visible ASCII characters. */
export function isValidIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** JSON with object keys sorted at every level, so equal arguments give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The fingerprint of a request's arguments: SHA-256 of the canonical method, path and body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ method: method.toUpperCase(), path, body }))
    .digest('hex');
}

/** A kept answer. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** What the store holds for a key. */
export type IdempotencyRecord =
  | { fingerprint: string; state: 'running'; startedAt: Date }
  | { fingerprint: string; state: 'done'; answer: StoredAnswer };

/** What to do with a request whose key is already recorded. */
export type IdempotencyDecision =
  { kind: 'replay'; answer: StoredAnswer } | { kind: 'mismatch' } | { kind: 'wait' } | { kind: 'take_over' };

/** The rules for a key already recorded, given the new request's fingerprint. */
export function decide(record: IdempotencyRecord, fingerprint: string, now: Date): IdempotencyDecision {
  if (record.fingerprint !== fingerprint) return { kind: 'mismatch' };
  if (record.state === 'done') return { kind: 'replay', answer: record.answer };
  return now.getTime() - record.startedAt.getTime() > IDEMPOTENCY_STALE_MS ? { kind: 'take_over' } : { kind: 'wait' };
}

/** Whether an answer is kept for replays (5xx are not: the key may be used again). */
export function isKeptAnswer(status: number): boolean {
  return status < 500;
}

/** Where keys live (PostgreSQL in production: PgIdempotencyStore). */
export interface IdempotencyStore {
  /** Records the key as running; false when the scope already has it. */
  begin(scope: string, key: string, fingerprint: string): Promise<boolean>;
  get(scope: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Takes over a stale running key (true when this caller got it). */
  takeOver(scope: string, key: string, fingerprint: string, staleMs: number): Promise<boolean>;
  complete(scope: string, key: string, answer: StoredAnswer): Promise<void>;
  /** Forgets the key (the request failed in a way that is not replayed). */
  release(scope: string, key: string): Promise<void>;
  /** Deletes keys older than the retention; how many. */
  prune(retentionMs: number): Promise<number>;
}

export type IdempotencyOutcome =
  { kind: 'run' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'mismatch' } | { kind: 'in_progress' };

/**
 * Claims a key for a request: `run` (this request runs and must then complete or release the key),
 * `replay`, `mismatch`, or `in_progress` after waiting up to `waitMs` for the first request.
 */
export async function claimIdempotencyKey(
  store: IdempotencyStore,
  scope: string,
  key: string,
  fingerprint: string,
  options: {
    waitMs?: number;
    pollMs?: number;
    now?: () => Date;
    /**
     * Whether a request still `running` after IDEMPOTENCY_STALE_MS (its process died) may be run again (the
     * default). Writes whose first run may have acted before it died (a trade) pass false: the key then stays
     * `in_progress` until it is pruned, and the caller checks the outcome instead of acting twice.
     */
    takeOver?: boolean;
  } = {},
): Promise<IdempotencyOutcome> {
  const now = options.now ?? (() => new Date());
  const deadline = now().getTime() + (options.waitMs ?? IDEMPOTENCY_WAIT_MS);
  for (;;) {
    if (await store.begin(scope, key, fingerprint)) return { kind: 'run' };
    const record = await store.get(scope, key);
    if (!record) continue; // released meanwhile: try to take it
    const decision = decide(record, fingerprint, now());
    if (decision.kind === 'replay' || decision.kind === 'mismatch') return decision;
    if (decision.kind === 'take_over') {
      if (options.takeOver === false) return { kind: 'in_progress' };
      if (await store.takeOver(scope, key, fingerprint, IDEMPOTENCY_STALE_MS)) return { kind: 'run' };
    }
    if (now().getTime() >= deadline) return { kind: 'in_progress' };
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 50));
  }
}

/** How often one process prunes its keys past their retention, at most. */
export const IDEMPOTENCY_PRUNE_EVERY_MS = 60_000;

/**
 * Prunes a store's keys past IDEMPOTENCY_RETENTION_MS now and then: `maybePrune()` on each keyed request
 * starts a prune at most once per IDEMPOTENCY_PRUNE_EVERY_MS, in the background; a failure is reported, never thrown.
 */
export class IdempotencyPruner {
  private last = 0;

  constructor(
    private readonly store: Pick<IdempotencyStore, 'prune'>,
    private readonly onError: (error: Error) => void,
  ) {}

  maybePrune(now = Date.now()): void {
    if (now - this.last < IDEMPOTENCY_PRUNE_EVERY_MS) return;
    this.last = now;
    this.store.prune(IDEMPOTENCY_RETENTION_MS).catch(this.onError);
  }
}
