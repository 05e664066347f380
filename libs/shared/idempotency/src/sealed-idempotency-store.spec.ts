import { randomUUID } from 'node:crypto';
import { claimIdempotencyKey, type IdempotencyRecord, type IdempotencyStore, requestFingerprint } from './idempotency';
import {
  idempotencyKeyDigest,
  openAnswerBody,
  sealAnswerBody,
  SealedIdempotencyStore,
} from './sealed-idempotency-store';

/** The rows a store would write, as they would be at rest. */
class MemoryStore implements IdempotencyStore {
  readonly rows = new Map<string, IdempotencyRecord>();
  private id = (scope: string, key: string) => `${scope}\u0000${key}`;

  async begin(scope: string, key: string, fingerprint: string): Promise<boolean> {
    if (this.rows.has(this.id(scope, key))) return false;
    this.rows.set(this.id(scope, key), { fingerprint, state: 'running', startedAt: new Date() });
    return true;
  }
  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    return this.rows.get(this.id(scope, key));
  }
  async takeOver(): Promise<boolean> {
    return false;
  }
  async complete(scope: string, key: string, answer: { status: number; body: unknown }): Promise<void> {
    const row = this.rows.get(this.id(scope, key))!;
    this.rows.set(this.id(scope, key), { fingerprint: row.fingerprint, state: 'done', answer });
  }
  async release(scope: string, key: string): Promise<void> {
    this.rows.delete(this.id(scope, key));
  }
  async prune(): Promise<number> {
    return 0;
  }
}

describe('sealed idempotency answers', () => {
  const body = { account: { id: 'account-id-in-the-answer' }, token: 'alrt_secret_token_value' };

  it('a sealed body opens with its key, scope and status only', () => {
    const key = randomUUID();
    const sealed = sealAnswerBody(key, 'key', 201, body);
    expect(sealed.sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(openAnswerBody(key, 'key', 201, sealed)).toEqual(body);
    expect(() => openAnswerBody(randomUUID(), 'key', 201, sealed)).toThrow();
    expect(() => openAnswerBody(key, 'other', 201, sealed)).toThrow();
    expect(() => openAnswerBody(key, 'key', 200, sealed)).toThrow();
    expect(() => openAnswerBody(key, 'key', 201, { sealed: 'v1.a.b' })).toThrow('not a sealed idempotency answer');
    expect(() => openAnswerBody(key, 'key', 201, body)).toThrow('not a sealed idempotency answer');
  });

  it('a tampered ciphertext does not open', () => {
    const key = randomUUID();
    const [v, iv, ciphertext, tag] = sealAnswerBody(key, 'key', 201, body).sealed.split('.');
    const flipped = Buffer.from(ciphertext!, 'base64url');
    flipped[0] ^= 1;
    const tampered = { sealed: [v, iv, flipped.toString('base64url'), tag].join('.') };
    expect(() => openAnswerBody(key, 'key', 201, tampered)).toThrow();
  });

  it('sealing twice gives different ciphertexts (a fresh IV each time)', () => {
    const key = randomUUID();
    expect(sealAnswerBody(key, 'key', 201, body).sealed).not.toBe(sealAnswerBody(key, 'key', 201, body).sealed);
  });

  it('the store replays the first answer to the holder of the key; its rows hold neither key nor answer', async () => {
    const inner = new MemoryStore();
    const store = new SealedIdempotencyStore(inner);
    const key = randomUUID();
    const fingerprint = requestFingerprint('POST', '/api/accounts', {});
    expect(await claimIdempotencyKey(store, 'key', key, fingerprint)).toEqual({ kind: 'run' });
    await store.complete('key', key, { status: 201, body });
    expect(await claimIdempotencyKey(store, 'key', key, fingerprint)).toEqual({
      kind: 'replay',
      answer: { status: 201, body },
    });
    const other = requestFingerprint('POST', '/api/accounts', { a: 1 });
    expect(await claimIdempotencyKey(store, 'key', key, other)).toEqual({ kind: 'mismatch' });
    // Another key is another row.
    expect(await claimIdempotencyKey(store, 'key', randomUUID(), fingerprint)).toEqual({ kind: 'run' });

    expect([...inner.rows.keys()]).toContain(`key\u0000${idempotencyKeyDigest(key)}`);
    const atRest = JSON.stringify([...inner.rows.entries()]);
    for (const secret of [key, body.token, 'account-id-in-the-answer']) expect(atRest).not.toContain(secret);
  });

  it('a row moved under another key does not open', async () => {
    const inner = new MemoryStore();
    const store = new SealedIdempotencyStore(inner);
    const [mine, theirs] = [randomUUID(), randomUUID()];
    await store.begin('key', mine, 'f');
    await store.complete('key', mine, { status: 201, body });
    await store.begin('key', theirs, 'f');
    await store.complete('key', theirs, { status: 201, body: { token: 'other' } });
    const stolen = await inner.get('key', idempotencyKeyDigest(mine));
    inner.rows.set(`key\u0000${idempotencyKeyDigest(theirs)}`, stolen!);
    await expect(store.get('key', theirs)).rejects.toThrow();
  });
});
