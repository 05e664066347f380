import type { ToolDefinition } from '@paper/contracts';

type QueryValue = string | string[] | undefined;

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Turns query-string arguments (`?count=50&all=true`) into the JSON types the tool's schema expects:
 * numbers and booleans are coerced, lists accept repeated parameters or commas. Text that cannot be
 * coerced is passed through unchanged so validation reports it with the parameter's name.
 */
export function coerceQueryArgs(tool: ToolDefinition, query: Record<string, QueryValue>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    const kind = fieldKind(tool, key);
    if (kind.type === 'array') {
      const items = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).filter((v) => v !== '');
      out[key] = items.map((item) => coerceScalar(kind.items, item));
    } else {
      out[key] = Array.isArray(raw) ? raw : coerceScalar(kind.type, raw);
    }
  }
  return out;
}

type ScalarKind = 'number' | 'boolean' | 'string' | 'other';

function coerceScalar(kind: ScalarKind, text: string): unknown {
  if (kind === 'number' && NUMBER_TEXT.test(text.trim())) return Number(text);
  if (kind === 'boolean') {
    if (text === 'true' || text === '1') return true;
    if (text === 'false' || text === '0') return false;
  }
  return text;
}

interface SchemaLike {
  def: { type: string; innerType?: SchemaLike; element?: SchemaLike };
}

function unwrap(schema: SchemaLike | undefined): SchemaLike | undefined {
  let current = schema;
  while (
    current &&
    ['optional', 'default', 'nullable', 'prefault'].includes(current.def.type) &&
    current.def.innerType
  ) {
    current = current.def.innerType;
  }
  return current;
}

function scalarKind(schema: SchemaLike | undefined): ScalarKind {
  const type = schema?.def.type;
  return type === 'number' || type === 'boolean' || type === 'string' ? type : 'other';
}

function fieldKind(tool: ToolDefinition, key: string): { type: 'array'; items: ScalarKind } | { type: ScalarKind } {
  const shape = tool.inputSchema.shape as Record<string, SchemaLike>;
  const field = Object.hasOwn(shape, key) ? unwrap(shape[key]) : undefined;
  if (field?.def.type === 'array') return { type: 'array', items: scalarKind(unwrap(field.def.element)) };
  return { type: scalarKind(field) };
}
