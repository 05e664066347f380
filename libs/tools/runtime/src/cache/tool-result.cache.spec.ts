import { canonicalJson } from './tool-result.cache';
import { chunk } from '../trading/close-positions.handler';

describe('canonicalJson', () => {
  it('gives equal keys for equal arguments in any order and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 1, c: 'x' }], z: undefined })).toBe('{"a":[2,{"c":"x","d":1}],"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });
});

describe('chunk', () => {
  it('splits close lists into intents of at most 12 positions', () => {
    const ids = Array.from({ length: 30 }, (_, i) => String(i + 1));
    expect(chunk(ids, 12).map((c) => c.length)).toEqual([12, 12, 6]);
    expect(chunk([], 12)).toEqual([]);
  });
});
