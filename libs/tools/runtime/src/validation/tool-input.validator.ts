import { ToolErrorCode, type ToolDefinition } from '@paper/contracts';
import { unstorableTextMessage, unstorableTextPath } from '@paper/nest-infra';
import type { z } from 'zod';
import { ToolError } from '../errors/tool.error';

type Issue = z.core.$ZodIssue;

const MAX_REPORTED_ISSUES = 4;

/** True for a plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates raw arguments against the tool's strict input schema and applies its defaults. Absent
 * arguments (`undefined`, `null` body) count as `{}`. Failures become ToolErrors: `unknown_parameter`
 * when a parameter is not part of the tool, `invalid_arguments` otherwise, with a message that names
 * each bad parameter and the accepted values.
 */
export function parseToolInput<T extends ToolDefinition>(tool: T, raw: unknown): z.output<T['inputSchema']> {
  const args = raw === undefined || raw === null ? {} : raw;
  if (!isPlainObject(args)) {
    throw new ToolError(
      ToolErrorCode.InvalidArguments,
      `The arguments of ${tool.name} must be a JSON object such as {"name": value}; got ${describeValue(args)}.`,
    );
  }
  // The shared text rule (REST bodies are checked before they get here; MCP arguments are checked here).
  const unstorable = unstorableTextPath(args);
  if (unstorable !== undefined)
    throw new ToolError(
      ToolErrorCode.InvalidArguments,
      `Invalid arguments for ${tool.name}: ${unstorableTextMessage(unstorable)}`,
    );
  const result = tool.inputSchema.safeParse(args);
  if (result.success) return result.data as z.output<T['inputSchema']>;
  const issues = result.error.issues;
  const unknown = issues.filter((i) => i.code === 'unrecognized_keys');
  if (unknown.length > 0) {
    const keys = unknown.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys : []));
    throw new ToolError(ToolErrorCode.UnknownParameter, unknownMessage(tool, keys));
  }
  const parts = issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => describeIssue(tool, issue, args));
  throw new ToolError(ToolErrorCode.InvalidArguments, `Invalid arguments for ${tool.name}: ${parts.join('; ')}.`);
}

function unknownMessage(tool: ToolDefinition, keys: readonly string[]): string {
  const accepted = Object.keys(tool.inputSchema.shape);
  const list = keys.map((k) => `"${k}"`).join(', ');
  const hint =
    accepted.length === 0 ? `${tool.name} takes no parameters` : `accepted parameters: ${accepted.join(', ')}`;
  return `Unknown parameter${keys.length > 1 ? 's' : ''} ${list} for ${tool.name}; ${hint}.`;
}

function describeIssue(tool: ToolDefinition, issue: Issue, args: Record<string, unknown>): string {
  const name = issue.path.length > 0 ? `"${issue.path.map(String).join('.')}"` : 'the arguments';
  const top = issue.path[0];
  const missing = typeof top === 'string' && issue.path.length === 1 && args[top] === undefined;
  if (missing) return `${name} is required${acceptedValues(tool, top)}`;
  switch (issue.code) {
    case 'invalid_type':
      return `${name} must be ${article(typeName(issue.expected))}, got ${describeValue(valueAt(args, issue.path))}`;
    case 'invalid_value':
      return (
        `${name} must be one of ${issue.values.map(String).join(', ')}; got ` +
        `${describeValue(valueAt(args, issue.path))}`
      );
    case 'too_small':
      return `${name} ${boundText('small', issue.origin, issue.minimum, issue.inclusive ?? true)}`;
    case 'too_big':
      return `${name} ${boundText('big', issue.origin, issue.maximum, issue.inclusive ?? true)}`;
    case 'invalid_format':
      return `${name} ${issue.message.startsWith('must') ? issue.message : `has an invalid format (${issue.format})`}`;
    default:
      return `${name}: ${issue.message}`;
  }
}

function boundText(kind: 'small' | 'big', origin: string, bound: number | bigint, inclusive: boolean): string {
  if (origin === 'string')
    return kind === 'small' ? `must have at least ${bound} characters` : `must have at most ${bound} characters`;
  if (origin === 'array' || origin === 'set')
    return kind === 'small' ? `must have at least ${bound} items` : `must have at most ${bound} items`;
  if (kind === 'small') return inclusive ? `must be at least ${bound}` : `must be greater than ${bound}`;
  return inclusive ? `must be at most ${bound}` : `must be less than ${bound}`;
}

function acceptedValues(tool: ToolDefinition, key: string): string {
  const field = Object.hasOwn(tool.inputSchema.shape, key) ? (tool.inputSchema.shape[key] as z.ZodType) : undefined;
  const options = (field as unknown as { options?: readonly unknown[] } | undefined)?.options;
  return Array.isArray(options) ? ` (one of ${options.join(', ')})` : '';
}

function typeName(expected: string): string {
  return expected === 'int' ? 'whole number' : expected;
}

function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

function valueAt(args: Record<string, unknown>, path: readonly PropertyKey[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string')
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'a non-finite number';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'undefined' ? 'nothing' : `${typeof value} ${String(value)}`;
}
