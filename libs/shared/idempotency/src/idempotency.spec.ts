import {
  canonicalJson,
  claimIdempotencyKey,
  decide,
  IDEMPOTENCY_PRUNE_EVERY_MS,
  IDEMPOTENCY_RETENTION_MS,
  IdempotencyPruner,
  type IdempotencyRecord,
  type IdempotencyStore,
  isValidIdempotencyKey,
  requestFingerprint,
} from './idempotency';

/** A store holding one key that a request began `startedAgoMs` ago and never finished. */
function storeWithStaleKey(startedAgoMs: number): IdempotencyStore & { takenOver: number } {
  const record: IdempotencyRecord = {
    fingerprint: 'f',
    state: 'running',
    startedAt: new Date(Date.now() - startedAgoMs),
  };
  const store = {
    takenOver: 0,
    begin: async () => false,
    get: async () => record,
    takeOver: async () => {
      store.takenOver += 1;
      return true;
    },
    complete: async () => undefined,
    release: async () => undefined,
    prune: async () => 0,
  };
  return store;
}

describe('idempotency core', () => {
  it('canonical JSON sorts keys at every level and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"x":0,"y":1}]},"b":1}',
    );
  });

  it('fingerprints depend on method, path and arguments, not on key order', () => {
    const a = requestFingerprint('post', '/api/x', { a: 1, b: 2 });
    expect(requestFingerprint('POST', '/api/x', { b: 2, a: 1 })).toBe(a);
    expect(requestFingerprint('POST', '/api/y', { a: 1, b: 2 })).not.toBe(a);
    expect(requestFingerprint('PATCH', '/api/x', { a: 1, b: 2 })).not.toBe(a);
    expect(requestFingerprint('POST', '/api/x', { a: 1, b: 3 })).not.toBe(a);
  });

  it('decides replay, mismatch, wait and take-over', () => {
    const now = new Date('2026-01-01T00:10:00Z');
    const done = { fingerprint: 'f', state: 'done' as const, answer: { status: 201, body: {} } };
    expect(decide(done, 'f', now)).toEqual({ kind: 'replay', answer: done.answer });
    expect(decide(done, 'g', now)).toEqual({ kind: 'mismatch' });
    const running = (ago: number) => ({
      fingerprint: 'f',
      state: 'running' as const,
      startedAt: new Date(now.getTime() - ago),
    });
    expect(decide(running(1000), 'f', now)).toEqual({ kind: 'wait' });
    expect(decide(running(61_000), 'f', now)).toEqual({ kind: 'take_over' });
    expect(decide(running(1000), 'g', now)).toEqual({ kind: 'mismatch' });
  });

  it('runs a request whose first run died again, unless the caller forbids a take-over', async () => {
    const lenient = storeWithStaleKey(61_000);
    await expect(claimIdempotencyKey(lenient, 's', 'k', 'f', { waitMs: 0 })).resolves.toEqual({ kind: 'run' });
    expect(lenient.takenOver).toBe(1);
    const strict = storeWithStaleKey(61_000);
    await expect(claimIdempotencyKey(strict, 's', 'k', 'f', { waitMs: 0, takeOver: false })).resolves.toEqual({
      kind: 'in_progress',
    });
    expect(strict.takenOver).toBe(0);
  });

  it('prunes at most once per IDEMPOTENCY_PRUNE_EVERY_MS, and reports a failed prune', async () => {
    const retentions: number[] = [];
    const errors: string[] = [];
    let fail = false;
    const store = {
      prune: async (ms: number) => {
        retentions.push(ms);
        if (fail) throw new Error('database gone');
        return 0;
      },
    };
    const pruner = new IdempotencyPruner(store, (e) => errors.push(e.message));
    const t = 1_000_000;
    pruner.maybePrune(t);
    pruner.maybePrune(t + IDEMPOTENCY_PRUNE_EVERY_MS - 1);
    expect(retentions).toEqual([IDEMPOTENCY_RETENTION_MS]);
    fail = true;
    pruner.maybePrune(t + IDEMPOTENCY_PRUNE_EVERY_MS);
    await new Promise((resolve) => setImmediate(resolve));
    expect(retentions).toHaveLength(2);
    expect(errors).toEqual(['database gone']);
  });

  it('keys are 1 to 255 visible ASCII characters', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey('x'.repeat(255))).toBe(true);
    for (const bad of ['', 'x'.repeat(256), 'a b', 'é', 'a\u0000']) expect(isValidIdempotencyKey(bad)).toBe(false);
  });
});
