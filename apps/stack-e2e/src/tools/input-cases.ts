import { type JsonSchema, TOOL_CATALOG, type ToolDefinition, toolJsonSchema } from '@paper/contracts';

type Prop = JsonSchema & {
  type?: string;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  maxLength?: number;
  maxItems?: number;
  minItems?: number;
  items?: Prop;
};

export interface BoundCase {
  tool: string;
  label: string;
  args: Record<string, unknown>;
  inside: boolean;
}

export interface BadCase {
  tool: string;
  label: string;
  /** JSON arguments (POST) or query values (GET). */
  args: unknown;
}

export function properties(tool: ToolDefinition): Record<string, Prop> {
  return (toolJsonSchema(tool, 'input')['properties'] ?? {}) as Record<string, Prop>;
}

/** Smallest meaningful value above an exclusive minimum of 0: a micro-USDC for amounts, a BTC price step for prices. */
function justAbove(name: string): number {
  return /price/i.test(name) ? 0.1 : 0.000001;
}

/** Just-inside and just-outside cases for every bound of every tool's input schema. */
export function boundCases(valid: Record<string, Record<string, unknown>>): BoundCase[] {
  const cases: BoundCase[] = [];
  for (const tool of TOOL_CATALOG) {
    const base = valid[tool.name]!;
    for (const [name, p] of Object.entries(properties(tool))) {
      const at = (value: unknown, inside: boolean, label: string) =>
        cases.push({ tool: tool.name, label: `${name} ${label}`, args: { ...base, [name]: value }, inside });
      const step = p.type === 'integer' ? 1 : 0.000001;
      if (p.minimum !== undefined && p.minimum > -1e15) {
        at(p.minimum, true, `= minimum ${p.minimum}`);
        at(p.minimum - step, false, `< minimum ${p.minimum}`);
      }
      if (p.maximum !== undefined && p.maximum < 1e15) {
        at(p.maximum, true, `= maximum ${p.maximum}`);
        at(p.maximum + step, false, `> maximum ${p.maximum}`);
      }
      if (p.exclusiveMinimum !== undefined) {
        at(justAbove(name), true, `just above ${p.exclusiveMinimum}`);
        at(p.exclusiveMinimum, false, `= exclusive minimum ${p.exclusiveMinimum}`);
      }
      if (p.maxLength !== undefined) {
        at('a'.repeat(p.maxLength), true, `of ${p.maxLength} characters`);
        at('a'.repeat(p.maxLength + 1), false, `of ${p.maxLength + 1} characters`);
      }
      if (p.maxItems !== undefined) {
        // Items the schema accepts: its enumeration's values in turn, else digit strings (ids).
        const item = (i: number) => (p.items?.enum ? p.items.enum[i % p.items.enum.length] : String(i + 1));
        at(
          Array.from({ length: p.maxItems }, (_, i) => item(i)),
          true,
          `with ${p.maxItems} items`,
        );
        at(
          Array.from({ length: p.maxItems + 1 }, (_, i) => item(i)),
          false,
          `with ${p.maxItems + 1} items`,
        );
      }
      if (p.minItems !== undefined) at([], false, 'empty');
    }
  }
  return cases;
}

/**
 * Every value of every enumerated parameter (intervals, ranges, windows, sort keys, markets, sides), each with
 * otherwise valid arguments.
 */
export function enumCases(valid: Record<string, Record<string, unknown>>): BoundCase[] {
  const cases: BoundCase[] = [];
  for (const tool of TOOL_CATALOG) {
    for (const [name, p] of Object.entries(properties(tool))) {
      for (const value of p.enum ?? []) {
        cases.push({
          tool: tool.name,
          label: `${name} = ${String(value)}`,
          args: { ...valid[tool.name], [name]: value },
          inside: true,
        });
      }
    }
  }
  return cases;
}

function badJsonValues(p: Prop): unknown[] {
  const common: unknown[] = [null, {}, [], true];
  if (p.type === 'number' || p.type === 'integer')
    return [...common, 'abc', '12', -1e300, ...(p.type === 'integer' ? [1.5] : [])];
  if (p.type === 'boolean') return [...common.filter((v) => v !== true), 'yes', 1, 0];
  if (p.type === 'array') return ['not-a-list', 5, [5], [''], ['-1'], [{}], Array.from({ length: 500 }, () => '1')];
  // strings: free text only has a length limit; enumerations and patterns refuse anything else
  const values: unknown[] = [...common, 5, 'x'.repeat(5000)];
  if (p.enum || p.pattern) values.push('', ' ', '0x', "'; DROP TABLE exchange.accounts; --", '\u0000');
  if (p.enum)
    values.push(
      'NOPE',
      ...p.enum
        .map((v) => flipCase(String(v)))
        .filter((v) => !p.enum!.includes(v))
        .slice(0, 1),
    );
  if (p.pattern) values.push(`0x${'g'.repeat(40)}`, `0x${'a'.repeat(41)}`, `0x${'a'.repeat(63)}`);
  return values;
}

function flipCase(text: string): string {
  return [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

function badQueryValues(p: Prop): string[] {
  if (p.type === 'number' || p.type === 'integer')
    return ['', 'abc', 'NaN', 'Infinity', '1e400', '0x10', ...(p.type === 'integer' ? ['1.5'] : []), '-999999999999'];
  if (p.type === 'boolean') return ['yes', 'TRUE', '2', ''];
  if (p.type === 'array') return ['', 'a,b', '-1', 'x'.repeat(3000)];
  const values = ['x'.repeat(5000)];
  if (p.enum || p.pattern) values.push('', '%00', '<script>');
  if (p.enum) values.push('NOPE', `${String(p.enum[0])} `);
  if (p.pattern) values.push('0x', `0x${'z'.repeat(40)}`);
  return values;
}

/** Bad arguments generated from every tool's schema: wrong types, bad formats, missing requirements, unknown names. */
export function badCases(valid: Record<string, Record<string, unknown>>, mode: 'json' | 'query'): BadCase[] {
  const cases: BadCase[] = [];
  for (const tool of TOOL_CATALOG) {
    const base = valid[tool.name]!;
    const props = properties(tool);
    for (const [name, p] of Object.entries(props)) {
      const values = mode === 'json' ? badJsonValues(p) : badQueryValues(p);
      values.forEach((value, i) =>
        cases.push({
          tool: tool.name,
          label: `${name} #${i} ${JSON.stringify(value).slice(0, 30)}`,
          args: { ...base, [name]: value },
        }),
      );
    }
    const required = (toolJsonSchema(tool, 'input')['required'] ?? []) as string[];
    for (const name of required) {
      const { [name]: _dropped, ...rest } = base;
      cases.push({ tool: tool.name, label: `without required ${name}`, args: rest });
    }
    cases.push({ tool: tool.name, label: 'unknown parameter', args: { ...base, surprise: mode === 'json' ? 1 : '1' } });
    cases.push({ tool: tool.name, label: 'prototype key', args: { ...base, __proto__x: '1', constructor: '1' } });
  }
  return cases;
}
