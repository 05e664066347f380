import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { IdempotencyRecord, IdempotencyStore, StoredAnswer } from './idempotency';

/**
 * Keys scoped by the key itself, for callers without an account (Stripe's rule for such callers): the key
 * is the caller's secret, so it must be unguessable (a UUID v4). A database reader learns neither the key
 * nor the answer: rows are found by the SHA-256 of the key, and answer bodies are sealed with AES-256-GCM
 * under a key derived from the idempotency key (HKDF-SHA256, fixed info), bound to their scope, row and
 * status. Only a caller who presents the key again can open its answer.
 */
const ANSWER_KEY_INFO = 'paper-idempotency/v1 answer key';
const SEALED_PREFIX = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a sealed answer body looks like in the store. */
export interface SealedBody {
  sealed: string;
}

/** The row key of an idempotency key: SHA-256, hex. */
export function idempotencyKeyDigest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function answerKey(key: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(key, 'utf8'), Buffer.alloc(0), ANSWER_KEY_INFO, 32));
}

/** What a sealed body is bound to: its scope, its row and its status (a body moved to another row does not open). */
function boundTo(scope: string, digest: string, status: number): Buffer {
  return Buffer.from(JSON.stringify([scope, digest, status]), 'utf8');
}

/** Seals an answer body for the holder of `key`: `{ sealed: "v1.<iv>.<ciphertext>.<tag>" }` (base64url parts). */
export function sealAnswerBody(key: string, scope: string, status: number, body: unknown): SealedBody {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', answerKey(key), iv);
  cipher.setAAD(boundTo(scope, idempotencyKeyDigest(key), status));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(body ?? null), 'utf8'), cipher.final()]);
  const parts = [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url'));
  return { sealed: [SEALED_PREFIX, ...parts].join('.') };
}

/** Opens a body sealed by sealAnswerBody; throws when the key, scope or status is not the one it was sealed with. */
export function openAnswerBody(key: string, scope: string, status: number, stored: unknown): unknown {
  const sealed = (stored as Partial<SealedBody> | null)?.sealed;
  const parts = typeof sealed === 'string' ? sealed.split('.') : [];
  if (parts.length !== 4 || parts[0] !== SEALED_PREFIX) throw new Error('not a sealed idempotency answer');
  const [iv, ciphertext, tag] = parts.slice(1).map((part) => Buffer.from(part, 'base64url')) as [
    Buffer,
    Buffer,
    Buffer,
  ];
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('not a sealed idempotency answer');
  const decipher = createDecipheriv('aes-256-gcm', answerKey(key), iv);
  decipher.setAAD(boundTo(scope, idempotencyKeyDigest(key), status));
  decipher.setAuthTag(tag);
  const plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as unknown;
}

/**
 * An IdempotencyStore that keeps only the SHA-256 of each key and sealed answer bodies in the store it
 * wraps (PgIdempotencyStore): same rules, nothing readable at rest. Answers are opened with the key the
 * caller presents; one that does not open (a tampered row) is an error, never replayed.
 */
export class SealedIdempotencyStore implements IdempotencyStore {
  constructor(private readonly inner: IdempotencyStore) {}

  begin(scope: string, key: string, fingerprint: string): Promise<boolean> {
    return this.inner.begin(scope, idempotencyKeyDigest(key), fingerprint);
  }

  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const record = await this.inner.get(scope, idempotencyKeyDigest(key));
    if (record?.state !== 'done') return record;
    const { status, body } = record.answer;
    return { ...record, answer: { status, body: openAnswerBody(key, scope, status, body) } };
  }

  takeOver(scope: string, key: string, fingerprint: string, staleMs: number): Promise<boolean> {
    return this.inner.takeOver(scope, idempotencyKeyDigest(key), fingerprint, staleMs);
  }

  complete(scope: string, key: string, answer: StoredAnswer): Promise<void> {
    const body = sealAnswerBody(key, scope, answer.status, answer.body);
    return this.inner.complete(scope, idempotencyKeyDigest(key), { status: answer.status, body });
  }

  release(scope: string, key: string): Promise<void> {
    return this.inner.release(scope, idempotencyKeyDigest(key));
  }

  prune(retentionMs: number): Promise<number> {
    return this.inner.prune(retentionMs);
  }
}
