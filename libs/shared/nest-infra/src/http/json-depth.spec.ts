import { jsonTextTooDeep, jsonValueTooDeep, MAX_JSON_DEPTH } from './json-depth';

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('JSON nesting depth', () => {
  it('is bounded at 64 levels, objects and arrays alike, in text and in parsed values', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    for (const text of [arrays(64), objects(64)]) {
      expect(jsonTextTooDeep(text)).toBe(false);
      expect(jsonValueTooDeep(JSON.parse(text))).toBe(false);
    }
    for (const text of [arrays(65), objects(65), arrays(100_000)]) {
      expect(jsonTextTooDeep(text)).toBe(true);
      expect(jsonTextTooDeep(Buffer.from(text))).toBe(true);
      expect(jsonValueTooDeep(JSON.parse(text))).toBe(true);
    }
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonTextTooDeep(JSON.stringify({ a: '['.repeat(100), b: '\\"[[[' }))).toBe(false);
    expect(jsonTextTooDeep(`["\\"${'['.repeat(100)}"]`)).toBe(false);
  });

  it('counts mixed nesting and honours another bound', () => {
    expect(jsonTextTooDeep('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(jsonTextTooDeep('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonValueTooDeep({ a: [{ b: [1] }] }, 3)).toBe(true);
    expect(jsonValueTooDeep({ a: [{ b: 1 }], c: 'x' }, 3)).toBe(false);
  });
});
