/** Malformed and boundary inputs for one operation, generated from its OpenAPI description. */

type Json = Record<string, unknown>;

export interface FuzzRequest {
  label: string;
  /** Query string (without `?`). */
  query?: string;
  /** Raw body text or bytes, and its content type (none: no header). */
  body?: string;
  contentType?: string;
}

const HUGE = 'x'.repeat(100_000);
const TWO_MB = JSON.stringify({ blob: 'y'.repeat(2 * 1024 * 1024) });
/** Values that are text PostgreSQL cannot store, or oversized, or of another type. */
const NASTY_STRINGS = ['a\u0000b', '\ud800', HUGE];

/** Bad values for a schema: other types, out-of-range and non-finite numbers, NUL-bearing and huge strings. */
function badValues(schema: Json): string[] {
  const type = schema['type'];
  const raw: string[] = [
    JSON.stringify(null),
    '{}',
    '[]',
    'true',
    '"0x"',
    ...NASTY_STRINGS.map((s) => JSON.stringify(s)),
  ];
  if (type === 'number' || type === 'integer') {
    const min =
      typeof schema['minimum'] === 'number'
        ? (schema['minimum'] as number)
        : typeof schema['exclusiveMinimum'] === 'number'
          ? (schema['exclusiveMinimum'] as number)
          : 0;
    const max = typeof schema['maximum'] === 'number' ? (schema['maximum'] as number) : 1e6;
    raw.push(
      String(min - 1),
      String(max + 1),
      '1e308',
      '-1e308',
      '1e999',
      '-1e999',
      '0.0000001',
      '12.1234567',
      '"12"',
      String(Number.MAX_SAFE_INTEGER + 2),
    );
  } else if (type === 'string') {
    raw.push('12345', JSON.stringify('z'.repeat(((schema['maxLength'] as number | undefined) ?? 64) + 1)));
  } else if (type === 'array') {
    raw.push(JSON.stringify(Array.from({ length: 1000 }, () => 'a\u0000')), JSON.stringify([[[[]]]]));
  }
  return raw;
}

/** Resolves a `$ref` inside the document. */
export function resolve(doc: Json, schema: unknown): Json {
  let current = schema as Json;
  for (let i = 0; i < 10 && current && typeof current['$ref'] === 'string'; i += 1) {
    const path = (current['$ref'] as string).replace(/^#\//, '').split('/');
    current = path.reduce<unknown>(
      (node, key) => (node as Json)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      doc,
    ) as Json;
  }
  return current ?? {};
}

/** Cases for a JSON body described by `schema`: per property, every bad value; then whole-body malformations. */
export function bodyCases(doc: Json, schema: unknown, perProperty = 8): FuzzRequest[] {
  const object = resolve(doc, schema);
  const properties = Object.entries((object['properties'] as Record<string, Json> | undefined) ?? {});
  const json = 'application/json';
  const cases: FuzzRequest[] = [];
  for (const [name, property] of properties) {
    const values = badValues(resolve(doc, property));
    // A bounded, spread selection of the bad values of each property.
    const picked = values.filter(
      (_, i) => i % Math.max(1, Math.ceil(values.length / perProperty)) === 0 || i >= values.length - 3,
    );
    for (const value of picked)
      cases.push({ label: `${name}=${value.slice(0, 24)}`, body: `{"${name}":${value}}`, contentType: json });
  }
  cases.push(
    {
      label: 'extra keys',
      body: JSON.stringify({ unexpected: 1, constructor: 'x', ['k\u0000']: 1 }),
      contentType: json,
    },
    { label: 'prototype key', body: '{"__proto__":{"admin":true}}', contentType: json },
    { label: 'array body', body: '[1,2]', contentType: json },
    { label: 'scalar body', body: '"text"', contentType: json },
    { label: 'null body', body: 'null', contentType: json },
    { label: 'invalid JSON', body: '{"a":', contentType: json },
    { label: 'deep JSON', body: `${'['.repeat(5000)}${']'.repeat(5000)}`, contentType: json },
    { label: 'text/plain', body: '{}', contentType: 'text/plain;charset=UTF-8' },
    { label: 'form', body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    { label: 'multipart', body: '--x\r\n\r\n--x--', contentType: 'multipart/form-data; boundary=x' },
    { label: 'no content type', body: '{"a":1}' },
    { label: 'xml', body: '<a/>', contentType: 'application/xml' },
    { label: '2 MB body', body: TWO_MB, contentType: json },
    { label: '2 MB text', body: TWO_MB, contentType: 'text/plain' },
  );
  return cases;
}

/** Cases for query parameters: per parameter, bad values as text; unknown and NUL-bearing parameters. */
export function queryCases(doc: Json, parameters: Json[]): FuzzRequest[] {
  const cases: FuzzRequest[] = [];
  for (const parameter of parameters.map((p) => resolve(doc, p)).filter((p) => p['in'] === 'query')) {
    const name = String(parameter['name']);
    const keys = name === 'arguments' ? ['market', 'count', 'wallet', 'days', 'marginUsd'] : [name];
    for (const key of keys) {
      for (const value of [
        '',
        'abc',
        '-1',
        '1e999',
        'NaN',
        'Infinity',
        '0x',
        '1.5',
        'a%00b',
        '%ED%A0%80',
        'z'.repeat(5000),
      ]) {
        cases.push({
          label: `?${key}=${value.slice(0, 16)}`,
          query: `${encodeURIComponent(key)}=${value.includes('%') ? value : encodeURIComponent(value)}`,
        });
      }
      cases.push({ label: `?${key} twice`, query: `${key}=1&${key}=2` });
    }
  }
  cases.push(
    { label: 'unknown query', query: 'unexpected=1&constructor=2&__proto__=3' },
    { label: 'NUL query key', query: 'a%00=1' },
  );
  return cases;
}
