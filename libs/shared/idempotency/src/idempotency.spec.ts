import { canonicalJson, decide, isValidIdempotencyKey, requestFingerprint } from './idempotency';

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

  it('keys are 1 to 255 visible ASCII characters', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey('x'.repeat(255))).toBe(true);
    for (const bad of ['', 'x'.repeat(256), 'a b', 'é', 'a\u0000']) expect(isValidIdempotencyKey(bad)).toBe(false);
  });
});
